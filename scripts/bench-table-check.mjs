// The update check benchmark's rows of the BENCHMARKS.md table (bench/results/check.json): the update check,
// CodePush and Expo, each against the framework's floor of the same requests (bench/floor-server.mjs, the
// goals) and against the bare server's `GET /hello` of the same run, and the update check against the bare
// POST baseline. Rows appear only for figures the results carry.
import { ratio } from './bench-format.mjs';

/** One protocol's rows against its floor and GET /hello: [what, figure, baseline, ratio]. */
function protocolRows(name, unit, x, hello, goal) {
  const rows = [];
  // Results of older drives (bench/results/before/) carry a protocol's figures flat, without `api`.
  if (!x.api) return rows;
  if (x.floor)
    rows.push([
      `${unit} against the Fastify floor of the same requests (goal ≥ ${goal})`,
      x.api.requests_per_sec,
      x.floor.requests_per_sec,
      x.ratio_floor,
    ]);
  if (hello && x.ratio_hello !== undefined)
    rows.push([
      `${unit} against bare GET /hello`,
      x.api.requests_per_sec,
      hello.requests_per_sec,
      x.ratio_hello,
    ]);
  if (x.floor && x.cpu_ratio_floor !== undefined)
    rows.push([
      `CPU µs per ${name} against the floor's (ratio: floor / API)`,
      x.api.cpu_us_per_request,
      x.floor.cpu_us_per_request,
      x.cpu_ratio_floor,
    ]);
  // The goals hold for every round, not only the median one reported above.
  if (x.rounds?.length > 1)
    rows.push([
      `${name} against its floor, each round (ratio; p99 ms)`,
      x.rounds.map((round) => `${round.ratio_floor}; ${round.api.latency_p99_ms}`).join(' / '),
      '',
      '',
    ]);
  if (x.api.inside)
    rows.push([
      `API event-loop delay during the ${name} drive, p99 / max ms; garbage collection, ms per s (minor / major)`,
      `${x.api.inside.loop_delay_p99_ms} / ${x.api.inside.loop_delay_max_ms}; ${x.api.inside.gc.minor?.ms_per_s ?? 0} / ${x.api.inside.gc.major?.ms_per_s ?? 0}`,
      '',
      '',
    ]);
  if (x.api.latency_p99_ms !== undefined && x.floor)
    rows.push([
      `${name} p99 latency, ms (goal ≤ 10)`,
      x.api.latency_p99_ms,
      x.floor.latency_p99_ms,
      ratio(x.api.latency_p99_ms, x.floor.latency_p99_ms),
    ]);
  return rows;
}

/** (results of bench/check.mjs) -> rows of [what, figure, baseline, ratio]. */
export const checkHeadlines = (r) => [
  ['update checks/s, 50 connections', r.api.requests_per_sec, r.baseline.requests_per_sec, r.ratio],
  ...protocolRows('update check', 'update checks/s', r, r.hello, 0.7),
  ...(r.floor && r.hello
    ? [
        [
          'Fastify floor check/s (schema, bucket, answer bytes) against GET /hello',
          r.floor.requests_per_sec,
          r.hello.requests_per_sec,
          r.floor_ratio_hello,
        ],
      ]
    : []),
  [
    'CPU µs per check (ratio: baseline / API)',
    r.api.cpu_us_per_request,
    r.baseline.cpu_us_per_request,
    r.cpu_ratio,
  ],
  ['API peak RSS, MB', r.api.peak_rss_mb, '', ''],
  ...(r.codepush ? protocolRows('CodePush check', 'CodePush checks/s', r.codepush, r.hello, 0.6) : []),
  ...(r.expo ? protocolRows('Expo manifest', 'Expo manifests/s', r.expo, r.hello, 0.6) : []),
  ...(r.capacitor ? protocolRows('Capacitor check', 'Capacitor checks/s', r.capacitor, r.hello, 0.6) : []),
  ...(r.metrics
    ? [
        [
          'update checks counted by /metrics (baseline: answers received; goal within 1 %)',
          r.metrics.counted,
          r.metrics.sent,
          ratio(r.metrics.counted, r.metrics.sent),
        ],
      ]
    : []),
  ...(r.scraped
    ? [
        [
          'update checks/s with /metrics scraped every second (baseline: not scraped; goal ≥ 0.97)',
          r.scraped.requests_per_sec,
          r.api.requests_per_sec,
          r.scrape_ratio,
        ],
      ]
    : []),
];
