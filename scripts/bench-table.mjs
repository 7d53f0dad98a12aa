// The table of BENCHMARKS.md: a few headline rows per benchmark, each figure beside the baseline measured in
// the same run and their ratio. Reads the results files of bench/results/ (missing ones are left out).
import { r1, ratio } from './bench-format.mjs';
import { checkHeadlines } from './bench-table-check.mjs';

/** name -> (results) -> rows of [what, figure, baseline, ratio]. */
const HEADLINES = {
  check: checkHeadlines,
  ingest: (r) => [
    [
      'device events/s accepted (batches of 100)',
      r.events_per_second_accepted,
      r.baseline?.events_per_second,
      r.ratio,
    ],
    [
      'CPU µs per event, API (ratio: baseline / API)',
      r.cpu_us_per_event.api,
      r.baseline?.cpu_us_per_event,
      r.cpu_ratio,
    ],
    [
      'stored = accepted, events',
      r.stored_equals_accepted ? `${r.stored} = ${r.accepted}` : `${r.stored} ≠ ${r.accepted}`,
      '',
      '',
    ],
    ['last event visible in ClickHouse after the load, ms', r.lag_ms, '', ''],
    ...(r.cpu_us_per_event.all
      ? [
          [
            'CPU µs per event, whole pipeline: API, ingest worker, Redis, ClickHouse, load client',
            r.cpu_us_per_event.all,
            '',
            '',
          ],
          [
            'events/s the cores could take at that CPU per event (baseline: the same without the API)',
            r.machine_ceiling_events_per_second.whole_pipeline,
            r.machine_ceiling_events_per_second.with_a_free_api,
            ratio(
              r.machine_ceiling_events_per_second.whole_pipeline,
              r.machine_ceiling_events_per_second.with_a_free_api,
            ),
          ],
        ]
      : []),
  ],
  webhooks: (r) => [
    [
      'signed deliveries/s to 10 healthy endpoints (goal ≥ 2000)',
      r.throughput?.median_deliveries_per_s,
      '',
      '',
    ],
    [
      'signed deliveries/s, 10 endpoints (baseline: all healthy)',
      r.with_hanging_endpoint?.median_deliveries_per_s,
      r.throughput?.median_deliveries_per_s,
      ratio(r.with_hanging_endpoint?.median_deliveries_per_s, r.throughput?.median_deliveries_per_s),
    ],
    [
      'error_spike from counters written, p50 / p95 ms',
      `${r.spike_latency_ms?.p50} / ${r.spike_latency_ms?.p95}`,
      '',
      '',
    ],
  ],
  spikes: (r) => [
    [
      'error_spike from the event batch accepted, p50 ms (baseline: push to release.pushed)',
      r.spike_alert_ms.p50,
      r.baseline_push_webhook_ms.p50,
      r.ratio_p50,
    ],
    [
      'the same, p95 ms',
      r.spike_alert_ms.p95,
      r.baseline_push_webhook_ms.p95,
      ratio(r.spike_alert_ms.p95, r.baseline_push_webhook_ms.p95),
    ],
    ['of which the ingest flush (INGEST_FLUSH_MS), ms', r.ingest_flush_ms, '', ''],
  ],
  audit: (r) => [
    [
      `audit page at offset ${r.pages.all.deep_page.offset} of ${r.entries_in_workspace}, ms (baseline: plain OFFSET)`,
      r.pages.all.deep_page.median_ms,
      r.naive_one_step_deep_page.median_ms,
      ratio(r.pages.all.deep_page.median_ms, r.naive_one_step_deep_page.median_ms),
    ],
    ['first page, ms', r.pages.all.first_page.median_ms, '', ''],
    ['deepest page filtered by action, ms', r.pages.action.deep_page.median_ms, '', ''],
  ],
  hostile: (r) => [
    [
      `verdict (${r.hostile.invented_total} invented values in ${r.hostile.requests} requests)`,
      r.pass ? 'pass' : 'FAIL',
      '',
      '',
    ],
    [
      'Redis keys added and kept (baseline: invented values sent; goal below 0.01)',
      r.redis_keys.growth_retained,
      r.hostile.invented_total,
      r.redis_keys.growth_retained_of_invented,
    ],
    [
      'Redis keys added at the end of the hostile phase (device limits are in process: none per device id)',
      r.redis_keys.growth_peak,
      r.hostile.invented_total,
      r.redis_keys.growth_peak_of_invented,
    ],
    [
      'normal events accepted → visible in ClickHouse, p95 ms (baseline: normal traffic alone)',
      r.normal.lag_ms.hostile.p95,
      r.normal.lag_ms.baseline.p95,
      ratio(r.normal.lag_ms.hostile.p95, r.normal.lag_ms.baseline.p95),
    ],
    [
      'hostile answers by status; 5xx of all answers',
      `${Object.entries(r.hostile.status_mix)
        .map(([status, n]) => `${status}: ${n}`)
        .join(', ')}; ${r.server_5xx}`,
      '',
      '',
    ],
    ...(r.zip_bombs
      ? [
          [
            `zip bombs: worker RSS growth while 3 zips inflating to ${r.zip_bombs.runs.limit_1_gib.bomb_inflated_mib} MiB each are read (unzipped limit 1 GiB), MB (goal < 512)`,
            r.zip_bombs.runs.limit_1_gib.worker_rss_mb.growth,
            '',
            '',
          ],
          [
            "zip bombs: another app's Capacitor manifest after its push, behind them, ms; at the default limit (bombs refused at upload)",
            `${r.zip_bombs.runs.limit_1_gib.other_app_manifest_ms}; ${r.zip_bombs.runs.limit_default.other_app_manifest_ms}`,
            '',
            '',
          ],
        ]
      : []),
    ...(r.lockout ? lockoutRows(r.lockout) : []),
    ...(r.spikes
      ? [
          [
            `forged failures: ${r.spikes.forged.invented_devices} invented devices from one address; releases still active`,
            r.spikes.forged.releases_still_active.every(Boolean) ? 'all' : 'not all',
            '',
            '',
          ],
          [
            `real failures from ${r.spikes.real.networks} networks: rolled back after, ms (goal ≤ ${r.spikes.real.goal_s} s)`,
            r.spikes.real.rolled_back_after_ms,
            '',
            '',
          ],
        ]
      : []),
    ...(r.throttled
      ? [
          [
            `throttled fleet: ${r.throttled.devices} devices on ${r.throttled.networks} networks answered 429, reporting download_fail; errors counted, error_spike alerts, releases still active (goal 0; 0; all)`,
            `${r.throttled.newest.errors + r.throttled.old.errors}; ${r.throttled.error_spike_alerts}; ${r.throttled.newest.active && r.throttled.old.active ? 'all' : 'not all'}`,
            '',
            '',
          ],
        ]
      : []),
  ],
  storage: (r) => [
    [
      `bundle upload to S3, MB/s (${r.settings.mb} MB; baseline: plain PutObject of the same bytes; goal ≥ 0.7)`,
      r.upload.mb_per_s,
      r.baseline.put_object_mb_per_s,
      r.ratio,
    ],
    [
      `API RSS growth during a ${r.settings.mb} MB upload, MB (goal ≤ ${r.upload.rss_goal_mb})`,
      r.upload.api_rss_growth_mb,
      '',
      '',
    ],
    [
      'API CPU µs per MB devices downloaded (BUNDLE_BASE_URL: bytes from the store; goal ≈ 0)',
      r.download.api_cpu_us_per_downloaded_mb,
      '',
      '',
    ],
  ],
  soak: (r) => {
    const { memory, requests } = r.verdict;
    const total = Object.values(requests).reduce((n, c) => n + c.n, 0);
    const errors = Object.values(requests).reduce(
      (n, c) => n + c.server_5xx + c.unexpected_4xx + c.network,
      0,
    );
    return [
      [`${r.settings.load_s / 60} min of mixed traffic: verdict`, r.verdict.pass ? 'pass' : 'FAIL', '', ''],
      [
        'API RSS, MB: last-quarter median (baseline: second quarter)',
        memory.api.q4_median_mb,
        memory.api.q2_median_mb,
        memory.api.q4_over_q2,
      ],
      [
        'worker RSS, MB: last-quarter median (baseline: second quarter)',
        memory.worker.q4_median_mb,
        memory.worker.q2_median_mb,
        memory.worker.q4_over_q2,
      ],
      [
        'RSS trend, second half, MB per 10 min (API, worker)',
        `${r1(memory.api.envelope_slope_second_half_mb_per_10min)}, ${r1(memory.worker.envelope_slope_second_half_mb_per_10min)}`,
        '',
        '',
      ],
      ['requests; errors (5xx, unexpected 4xx, network)', `${total}; ${errors}`, '', ''],
      [
        'events stored / accepted; deliveries made',
        `${r.end.events.stored} / ${r.end.events.accepted}; ${r.end.receiver.verified}`,
        '',
        '',
      ],
    ];
  },
  // The fleet on the cluster engines, one of everything killed (bench/fleet.mjs): the fault run against the
  // same seeded fleet without faults.
  fleet: (r) => {
    const { fault_free: clean, faults } = r.comparison;
    const kinds = r.runs.faults.faults.map((f) => f.kind).join(', ');
    const windows = (f) =>
      f.check_errors.seconds.length === 0
        ? 'none'
        : `${f.check_errors.total} in ${f.check_errors.seconds.length} s (${[
            ...new Set(f.check_errors.seconds.map((w) => w.fault ?? 'no fault')),
          ].join(', ')})`;
    return [
      [
        `${r.settings.load_s} s, killed in turn: ${kinds}: verdict`,
        r.comparison.pass ? 'pass' : 'FAIL',
        '',
        '',
      ],
      [
        'update checks/s (baseline: the fault-free run)',
        faults.checks_per_s,
        clean.checks_per_s,
        ratio(faults.checks_per_s, clean.checks_per_s),
      ],
      [
        'check p99 ms, during the faults (baseline: before the first)',
        faults.check_ms.during_faults.p99,
        faults.check_ms.before_faults.p99,
        ratio(faults.check_ms.during_faults.p99, faults.check_ms.before_faults.p99),
      ],
      ['checks answered 5xx or cut (the faults they fell in)', windows(faults), windows(clean), ''],
      [
        'events stored / accepted (baseline: the fault-free run)',
        `${faults.events.stored} / ${faults.events.accepted}`,
        `${clean.events.stored} / ${clean.events.accepted}`,
        '',
      ],
      [
        'error spike to its webhook, p50 ms, during the faults (baseline: before the first)',
        faults.spike_ms.during_faults.p50,
        faults.spike_ms.before_faults.p50,
        ratio(faults.spike_ms.during_faults.p50, faults.spike_ms.before_faults.p50),
      ],
      [
        'error spikes alerted; signed webhooks received (baseline: the fault-free run)',
        `${faults.spike_ms.during_faults.n + faults.spike_ms.before_faults.n - faults.spike_ms.missed} of ${faults.spike_ms.during_faults.n + faults.spike_ms.before_faults.n}; ${faults.webhooks_verified}`,
        `${clean.spike_ms.during_faults.n + clean.spike_ms.before_faults.n - clean.spike_ms.missed} of ${clean.spike_ms.during_faults.n + clean.spike_ms.before_faults.n}; ${clean.webhooks_verified}`,
        '',
      ],
      [
        'per-release statistics equal to the fault-free run',
        r.comparison.per_release_equal
          ? `yes, ${r.comparison.releases_compared} releases`
          : `no: ${r.comparison.per_release_differences.length} of ${r.comparison.releases_compared} differ`,
        '',
        '',
      ],
    ];
  },
  // Bytes a device on the previous release downloads through the service for a one-line change; the
  // baseline is the full download.
  deltas: (r) => [
    [
      `Expo, ${r.one_line_change.expo.bundle ?? 'javascript'}: the launch asset's patch, bytes (goal ≤ 10 % of the full asset)`,
      r.one_line_change.expo.patch_bytes,
      r.one_line_change.expo.full_bytes,
      r.one_line_change.expo.share_of_full,
    ],
    [
      'CodePush zip, the bundle changed: the download (a diff package when it saves 30 %), bytes',
      r.one_line_change.codepush.diff_bytes,
      r.one_line_change.codepush.full_bytes,
      r.one_line_change.codepush.share_of_full,
    ],
    ...(r.one_line_change.codepush_changed_image
      ? [
          [
            'CodePush zip, an image changed: the diff package, bytes',
            r.one_line_change.codepush_changed_image.diff_bytes,
            r.one_line_change.codepush_changed_image.full_bytes,
            r.one_line_change.codepush_changed_image.share_of_full,
          ],
        ]
      : []),
    [
      'Capacitor www/: per-file download of a device on the base, bytes',
      r.one_line_change.capacitor.download_bytes,
      r.one_line_change.capacitor.full_bytes,
      r.one_line_change.capacitor.share_of_full,
    ],
    [
      'making them, ms per MB of the release (bsdiff; diff package; brotli manifest)',
      `${r.ms_per_mb.expo_bsdiff}; ${r.ms_per_mb.codepush_diff}; ${r.ms_per_mb.capacitor_manifest}`,
      '',
      '',
    ],
  ],
};

/** The lockout phase of bench:hostile (bench/hostile-lockout.mjs): did the owner get in during the guessing? */
export function lockoutRows(l) {
  return [
    [
      `lockout: owner's sign-ins from its own network that got in, while ${l.guessing.addresses} addresses on ${l.guessing.networks} networks guessed its password for ${l.seconds} s (goal: all)`,
      `${l.owner.signed_in} of ${l.owner.attempts}`,
      '',
      '',
    ],
    [
      'lockout: owner first signed in after, ms (from the start of the guessing); its sign-in p50 / p95 ms (password hashing shares the CPU with the guesses)',
      `${l.owner.first_success_after_ms}; ${l.owner.latency_ms.p50} / ${l.owner.latency_ms.p95}`,
      '',
      '',
    ],
    [
      "lockout: guessers' answers (401 checked, 429 refused by the failure limits)",
      Object.entries(l.guessing.answers)
        .map(([status, n]) => `${status}: ${n}`)
        .join(', '),
      '',
      '',
    ],
  ];
}

const COMMANDS = { soak: 'npm run soak' };

/** The Markdown table for the results present, by benchmark name. */
export function benchmarkTable(results) {
  let table = '| benchmark | figure | value | baseline | ratio |\n|---|---|---|---|---|\n';
  for (const [name, rows] of Object.entries(HEADLINES)) {
    const result = results[name];
    if (!result) continue;
    let first = true;
    for (const [what, value, baseline, r] of rows(result)) {
      const label = first ? `${name} (\`${COMMANDS[name] ?? `npm run bench:${name}`}\`)` : '';
      table += `| ${label} | ${what} | ${typeof value === 'number' ? r1(value) : value} | ${typeof baseline === 'number' ? r1(baseline) : (baseline ?? '–')} | ${r} |\n`;
      first = false;
    }
  }
  return table;
}

/**
 * Earlier results (bench/results/before/) beside the latest: each headline figure and its same-run ratio,
 * before and after, for the benchmarks present in both. Rows are matched by their label.
 */
export function beforeAfterTable(before, after) {
  let table =
    '| benchmark | figure | before | ratio before | after | ratio after |\n|---|---|---|---|---|---|\n';
  const cell = (x) => (typeof x === 'number' ? r1(x) : (x ?? '–'));
  for (const [name, rows] of Object.entries(HEADLINES)) {
    if (!before[name] || !after[name]) continue;
    const earlier = new Map(rows(before[name]).map(([what, value, , r]) => [what, [value, r]]));
    let first = true;
    for (const [what, value, , r] of rows(after[name])) {
      const [was, wasRatio] = earlier.get(what) ?? ['–', '–'];
      const label = first ? `${name} (\`${COMMANDS[name] ?? `npm run bench:${name}`}\`)` : '';
      table += `| ${label} | ${what} | ${cell(was)} | ${wasRatio} | ${cell(value)} | ${r} |\n`;
      first = false;
    }
  }
  return table;
}
