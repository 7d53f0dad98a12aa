// What bench/check.mjs reads from the API's own GET /metrics (OPERATOR_TOKEN): the checks it counted, its
// event-loop delay and its garbage collection during a drive, and a loop scraping it as Prometheus would.

/**
 * What the API's /metrics says so far: the update checks of protocol "ota" it counted, its event-loop delay
 * since the scrape before (prom-client's histogram starts again at each scrape) and its garbage
 * collection so far (seconds and pauses per kind).
 */
export async function apiMetrics(apiUrl, token) {
  const res = await fetch(`${apiUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`GET /metrics answered ${res.status}`);
  const out = { checks: 0, loopP99Ms: 0, loopMaxMs: 0, gcSeconds: {}, gcPauses: {} };
  const value = (line) => Number(line.slice(line.lastIndexOf(' ') + 1));
  const kind = (line) => /kind="([a-z]+)"/.exec(line)?.[1] ?? 'other';
  for (const line of (await res.text()).split('\n')) {
    if (line.startsWith('ota_update_checks_total{') && line.includes('protocol="ota"'))
      out.checks += value(line);
    else if (line.startsWith('nodejs_eventloop_lag_p99_seconds ')) out.loopP99Ms = value(line) * 1000;
    else if (line.startsWith('nodejs_eventloop_lag_max_seconds ')) out.loopMaxMs = value(line) * 1000;
    else if (line.startsWith('nodejs_gc_duration_seconds_sum{')) out.gcSeconds[kind(line)] = value(line);
    else if (line.startsWith('nodejs_gc_duration_seconds_count{')) out.gcPauses[kind(line)] = value(line);
  }
  return out;
}

/**
 * The API's event-loop delay during a drive and its garbage collection per second of it: p99 and max of
 * the delay in ms, and ms of collection per second and pauses per second by kind (minor: scavenges of the
 * young generation; major: mark-compact; incremental: marking steps).
 */
export function loopAndGc(before, after, seconds) {
  const r = (x) => Math.round(x * 100) / 100;
  const gc = {};
  for (const k of Object.keys(after.gcSeconds)) {
    gc[k] = {
      ms_per_s: r((1000 * (after.gcSeconds[k] - (before.gcSeconds[k] ?? 0))) / seconds),
      pauses_per_s: r((after.gcPauses[k] - (before.gcPauses[k] ?? 0)) / seconds),
    };
  }
  return { loop_delay_p99_ms: r(after.loopP99Ms), loop_delay_max_ms: r(after.loopMaxMs), gc };
}

/**
 * The API's loop delay and garbage collection over the slices of one drive: the worst slice's delay (p99
 * and max), and collection per second over all of them (the slices are of one length).
 */
export function insideOfSlices(insides) {
  const r = (x) => Math.round(x * 100) / 100;
  const gc = {};
  for (const inside of insides) {
    for (const [kind, { ms_per_s, pauses_per_s }] of Object.entries(inside.gc)) {
      gc[kind] ??= { ms_per_s: 0, pauses_per_s: 0 };
      gc[kind].ms_per_s += ms_per_s / insides.length;
      gc[kind].pauses_per_s += pauses_per_s / insides.length;
    }
  }
  for (const kind of Object.values(gc)) {
    kind.ms_per_s = r(kind.ms_per_s);
    kind.pauses_per_s = r(kind.pauses_per_s);
  }
  return {
    loop_delay_p99_ms: Math.max(...insides.map((i) => i.loop_delay_p99_ms)),
    loop_delay_max_ms: Math.max(...insides.map((i) => i.loop_delay_max_ms)),
    gc,
  };
}

/** Scrapes /metrics once a second until stopped, as Prometheus does. */
export function scrapeLoop(apiUrl, token) {
  let running = true;
  let scrapes = 0;
  const loop = (async () => {
    while (running) {
      await apiMetrics(apiUrl, token);
      scrapes += 1;
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return scrapes;
    },
  };
}
