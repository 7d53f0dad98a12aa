// The figures of bench/fleet.mjs: per run, checks/s and their latency before and during the faults, the
// seconds that had 5xx or network errors and the fault each fell in, spike-to-webhook latency before and
// during the faults, events accepted against stored; between the runs, the per-release statistics.

const pct = (xs, p) => {
  const s = xs.filter((x) => x !== null).sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * p))] : null;
};

/** The fault whose window (kill to restore, plus 30 s for what follows) holds second `t`, or null. */
function faultAt(run, t) {
  return run.faults.find((f) => t >= f.killed_at_s && t <= f.restored_at_s + 30)?.kind ?? null;
}

export function runFigures(run) {
  const firstFault = run.faults[0]?.killed_at_s ?? Number.POSITIVE_INFINITY;
  const before = run.checks.filter((c) => c.t < firstFault);
  const during = run.checks.filter((c) => c.t >= firstFault);
  const ok = run.checks.filter((c) => c.status === 200);
  const bad = run.checks.filter((c) => c.status === 0 || c.status >= 500);
  const windows = {};
  for (const c of bad) {
    const second = Math.floor(c.t);
    windows[second] ??= { second, n: 0, statuses: {}, fault: faultAt(run, c.t) };
    const w = windows[second];
    w.n += 1;
    w.statuses[c.status] = (w.statuses[c.status] ?? 0) + 1;
  }
  const req = run.requests.events ?? {};
  const spikeBefore = run.spikes.filter((s) => s.t < firstFault).map((s) => s.ms);
  const spikeDuring = run.spikes.filter((s) => s.t >= firstFault).map((s) => s.ms);
  return {
    checks_per_s: Math.round((ok.length / run.load_s) * 10) / 10,
    check_ms: {
      before_faults: {
        p50: pct(
          before.map((c) => c.ms),
          0.5,
        ),
        p99: pct(
          before.map((c) => c.ms),
          0.99,
        ),
      },
      during_faults: {
        p50: pct(
          during.map((c) => c.ms),
          0.5,
        ),
        p99: pct(
          during.map((c) => c.ms),
          0.99,
        ),
      },
    },
    check_errors: { total: bad.length, seconds: Object.values(windows) },
    event_posts: {
      ok: req.ok ?? 0,
      server_5xx: req.server_5xx ?? 0,
      network: req.network ?? 0,
      unexpected_4xx: req.unexpected_4xx ?? 0,
    },
    spike_ms: {
      before_faults: { n: spikeBefore.length, p50: pct(spikeBefore, 0.5), max: pct(spikeBefore, 1) },
      during_faults: { n: spikeDuring.length, p50: pct(spikeDuring, 0.5), max: pct(spikeDuring, 1) },
      missed: run.spikes.filter((s) => s.ms === null).length,
    },
    events: run.events,
    dead_letters: run.dead_letters,
    webhooks_verified: run.webhooks.verified,
    bad_signatures: run.webhooks.bad,
    nothing_lost: run.events.accepted === run.events.stored && run.dead_letters === 0,
  };
}

/** Every spike alerted in both runs, and every webhook the fault-free run received received with faults too. */
export function alertsAndWebhooksKept({ fault_free: clean, faults }) {
  return (
    clean.spike_ms.missed === 0 &&
    faults.spike_ms.missed === 0 &&
    faults.webhooks_verified === clean.webhooks_verified
  );
}

export function compareRuns(clean, faults) {
  const differences = [];
  const keys = new Set([...Object.keys(clean.per_release), ...Object.keys(faults.per_release)]);
  for (const k of [...keys].sort()) {
    const a = JSON.stringify(clean.per_release[k] ?? null);
    const b = JSON.stringify(faults.per_release[k] ?? null);
    if (a !== b)
      differences.push({ release: k, fault_free: clean.per_release[k], faults: faults.per_release[k] });
  }
  const figures = { fault_free: runFigures(clean), faults: runFigures(faults) };
  const sameEvents = clean.events.accepted === faults.events.accepted;
  const alertsKept = alertsAndWebhooksKept(figures);
  return {
    pass:
      figures.fault_free.nothing_lost &&
      figures.faults.nothing_lost &&
      sameEvents &&
      differences.length === 0 &&
      alertsKept,
    alerts_and_webhooks_kept: alertsKept,
    releases_compared: keys.size,
    per_release_equal: differences.length === 0,
    per_release_differences: differences,
    same_events_accepted: sameEvents,
    ...figures,
  };
}

export function fleetSummary(result) {
  const c = result.comparison;
  const line = (name, f) =>
    `${name}: ${f.checks_per_s} checks/s, check p50/p99 ${f.check_ms.before_faults.p50}/${f.check_ms.before_faults.p99} ms ` +
    `before faults, ${f.check_ms.during_faults.p50}/${f.check_ms.during_faults.p99} ms after; check errors ` +
    `${f.check_errors.total} in ${f.check_errors.seconds.length} s; events accepted ${f.events.accepted}, stored ` +
    `${f.events.stored}; spike p50 ${f.spike_ms.before_faults.p50} ms before, ${f.spike_ms.during_faults.p50} ms after ` +
    `(missed ${f.spike_ms.missed}); event posts 5xx ${f.event_posts.server_5xx}, cut ${f.event_posts.network}`;
  return [
    line('fault-free', c.fault_free),
    line('faults', c.faults),
    `per-release statistics equal: ${c.per_release_equal} (${c.releases_compared} releases)`,
    `webhooks received: ${c.faults.webhooks_verified} with faults, ${c.fault_free.webhooks_verified} without`,
    `verdict: ${c.pass ? 'pass' : 'FAIL'}`,
  ].join('\n');
}

/** The results file: the figures, and each run without its list of every check (thousands of lines). */
export function resultsFile(result) {
  const runs = {};
  for (const [name, run] of Object.entries(result.runs)) {
    const { checks, ...rest } = run;
    runs[name] = { ...rest, checks_sent: checks.length };
  }
  return { ...result, runs };
}
