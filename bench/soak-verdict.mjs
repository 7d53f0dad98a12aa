// The soak test's verdict (see bench/soak.mjs for the method and the thresholds): memory trends from the
// load-phase samples, error counts of the first and second half, the backlog after the load, and what was
// delivered and stored against what was accepted.

export const THRESHOLDS = {
  /** Median RSS of the last quarter over the median of the second quarter, per process. */
  max_rss_ratio: 1.1,
  /** The same for loads under slope_judged_from_load_s, where one GC cycle spans a quarter: gross leaks only. */
  max_rss_ratio_short_run: 1.5,
  /**
   * Least-squares slope over the second half, per process, in MB per 10 minutes, of the RSS's upper envelope
   * (each sample replaced by the largest RSS of the preceding envelope_window_s): a major GC drops RSS by
   * 25-35 MB and it regrows within about a minute, and the plain slope reads such a drop early in the second
   * half as growth of up to the drop's size per 10 minutes. The plain slope is reported too.
   */
  max_rss_slope_mb_per_10min: 20,
  envelope_window_s: 60,
  /** Below this much load the slope is reported but not judged (a few seconds of GC sawtooth dominate). */
  slope_judged_from_load_s: 300,
  server_errors: 0,
  /** Errors (5xx, unexpected 4xx, network) of the second half may not exceed those of the first half. */
  error_growth: 'second half <= first half',
  drain_timeout_s: 120,
};

const round = (x, d = 1) => (x === null || Number.isNaN(x) ? null : Math.round(x * 10 ** d) / 10 ** d);

export function median(xs) {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Least-squares slope of y over x; null with fewer than 3 points. */
export function slope(points) {
  if (points.length < 3) return null;
  const n = points.length;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.x - mx) * (p.y - my);
    den += (p.x - mx) ** 2;
  }
  return den === 0 ? null : num / den;
}

/** RSS figures and the flat-memory judgement of one process (`key` is `api` or `worker`). */
export function memoryOf(samples, key, loadS) {
  const load = samples.filter((s) => s.phase === 'load' && s[key].rss_mb !== null);
  const at = (from, to) => load.filter((s) => s.t_s > from * loadS && s.t_s <= to * loadS);
  const rss = (list) => list.map((s) => s[key].rss_mb);
  const secondHalf = at(0.5, 1);
  const perSecond = slope(secondHalf.map((s) => ({ x: s.t_s, y: s[key].rss_mb })));
  const envelope = secondHalf.map((s) => ({
    x: s.t_s,
    y: Math.max(...rss(load.filter((o) => o.t_s <= s.t_s && o.t_s > s.t_s - THRESHOLDS.envelope_window_s))),
  }));
  const envelopePerSecond = slope(envelope);
  const envelopePer10 = envelopePerSecond === null ? null : envelopePerSecond * 600;
  const q2 = median(rss(at(0.25, 0.5)));
  const q4 = median(rss(at(0.75, 1)));
  const ratio = q2 && q4 ? q4 / q2 : null;
  const slopePer10 = perSecond === null ? null : perSecond * 600;
  const slopeJudged = loadS >= THRESHOLDS.slope_judged_from_load_s;
  const maxRatio = slopeJudged ? THRESHOLDS.max_rss_ratio : THRESHOLDS.max_rss_ratio_short_run;
  const ratioOk = ratio !== null && ratio <= maxRatio;
  const slopeOk =
    !slopeJudged || (envelopePer10 !== null && envelopePer10 <= THRESHOLDS.max_rss_slope_mb_per_10min);
  const all = rss(load);
  return {
    rss_start_mb: all[0] ?? null,
    rss_end_mb: all.at(-1) ?? null,
    rss_min_mb: all.length ? Math.min(...all) : null,
    rss_max_mb: all.length ? Math.max(...all) : null,
    q2_median_mb: round(q2),
    q4_median_mb: round(q4),
    q4_over_q2: round(ratio, 3),
    q4_over_q2_limit: maxRatio,
    slope_second_half_mb_per_10min: round(slopePer10, 2),
    envelope_slope_second_half_mb_per_10min: round(envelopePer10, 2),
    slope_judged: slopeJudged,
    flat: ratioOk && slopeOk,
  };
}

const ERROR_OUTCOMES = ['unexpected_4xx', 'server_5xx', 'network'];

/** Sums the per-kind counters of a list of samples. */
export function sumRequests(samples) {
  const out = {};
  for (const s of samples) {
    for (const [kind, c] of Object.entries(s.requests)) {
      out[kind] ??= { n: 0, ok: 0, expected_4xx: 0, unexpected_4xx: 0, server_5xx: 0, network: 0 };
      for (const k of Object.keys(out[kind])) out[kind][k] += c[k] ?? 0;
    }
  }
  return out;
}

const errorsIn = (totals) =>
  Object.values(totals).reduce((n, c) => n + ERROR_OUTCOMES.reduce((m, o) => m + c[o], 0), 0);

/** The verdict; `end` carries the drain, delivery and storage figures gathered after the load. */
export function verdict(samples, loadS, end) {
  // Requests still in flight when the load stopped land in the drain sample: they count with the second half.
  const firstHalf = sumRequests(samples.filter((s) => s.t_s <= loadS / 2));
  const secondHalf = sumRequests(samples.filter((s) => s.t_s > loadS / 2));
  const totals = sumRequests(samples);
  const serverErrors = Object.values(totals).reduce((n, c) => n + c.server_5xx, 0);
  const errors = { first_half: errorsIn(firstHalf), second_half: errorsIn(secondHalf) };
  const memory = { api: memoryOf(samples, 'api', loadS), worker: memoryOf(samples, 'worker', loadS) };
  const criteria = {
    flat_memory_api: memory.api.flat,
    flat_memory_worker: memory.worker.flat,
    no_server_errors: serverErrors <= THRESHOLDS.server_errors,
    no_error_growth: errors.second_half <= errors.first_half,
    backlog_drained: end.drained,
    nothing_lost:
      end.dead_letters === 0 &&
      end.deliveries.failed === 0 &&
      end.receiver.bad_signatures === 0 &&
      end.events.stored === end.events.accepted,
    processes_survived: end.exits.api === null && end.exits.worker === null,
  };
  return {
    pass: Object.values(criteria).every(Boolean),
    criteria,
    memory,
    errors: { ...errors, server_5xx_total: serverErrors },
    requests: totals,
  };
}

/** A few lines for the terminal. */
export function summary(result) {
  const v = result.verdict;
  const lines = [];
  const mem = (name, m) =>
    `${name.padEnd(7)} RSS ${m.rss_start_mb} -> ${m.rss_end_mb} MB (max ${m.rss_max_mb}); Q4/Q2 median ` +
    `${m.q4_median_mb}/${m.q2_median_mb} = ${m.q4_over_q2} (limit ${m.q4_over_q2_limit}); slope 2nd half ` +
    `${m.slope_second_half_mb_per_10min} MB/10 min, of the envelope ${m.envelope_slope_second_half_mb_per_10min}` +
    `${m.slope_judged ? ' (limit 20)' : ' (not judged: short run)'} ` +
    `-> ${m.flat ? 'flat' : 'NOT FLAT'}`;
  lines.push(
    `soak: ${result.settings.load_s} s of mixed traffic, ${result.samples.length} samples every ` +
      `${result.settings.interval_s} s`,
  );
  lines.push(mem('api', v.memory.api), mem('worker', v.memory.worker));
  const t = v.requests;
  lines.push(
    `requests: ${Object.entries(t)
      .map(([k, c]) => `${k} ${c.n}`)
      .join(', ')}`,
  );
  const sum = (o) => Object.values(t).reduce((n, c) => n + c[o], 0);
  lines.push(
    `outcomes: ok ${sum('ok')}, expected 4xx ${sum('expected_4xx')}, unexpected 4xx ${sum('unexpected_4xx')}, ` +
      `5xx ${sum('server_5xx')}, network ${sum('network')}; errors 1st half ${v.errors.first_half}, ` +
      `2nd half ${v.errors.second_half}`,
  );
  const e = result.end;
  lines.push(
    `events accepted ${e.events.accepted}, stored ${e.events.stored}; webhooks received ${e.receiver.verified} ` +
      `(bad ${e.receiver.bad_signatures}), deliveries ${JSON.stringify(e.deliveries)}; drained in ` +
      `${e.drain_s ?? '>timeout'} s`,
  );
  lines.push(
    `criteria: ${Object.entries(v.criteria)
      .map(([k, ok]) => `${k} ${ok ? 'ok' : 'FAILED'}`)
      .join(', ')}`,
  );
  lines.push(`verdict: ${v.pass ? 'PASS' : 'FAIL'}`);
  return lines.join('\n');
}
