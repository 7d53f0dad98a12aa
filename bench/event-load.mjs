// Load of bench/ingest.mjs: event batches posted as fast as the server answers, on every connection of an
// undici pool, against the API or the baseline server alike.

/** Waits until GET /healthz answers 200 (thirty seconds at most: a busy shared machine starts slowly). */
export async function waitHealthy(pool, what) {
  for (let i = 0; ; i++) {
    const ok = await pool
      .request({ method: 'GET', path: '/healthz' })
      .then(async (r) => {
        await r.body.text();
        return r.statusCode === 200;
      })
      .catch(() => false);
    if (ok) return;
    if (i > 300) throw new Error(`${what} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Posts batches over `connections` connections for `seconds`; each body is the template `parts` joined with a request
 * number, so every event id is unique. Returns events accepted (202), requests, failures and latencies.
 */
export async function drive(pool, parts, seconds, connections) {
  const out = { accepted: 0, requests: 0, failed: 0, latencies: [], seconds: 0 };
  let seq = 0;
  const started = Date.now();
  const end = started + seconds * 1000;
  async function loop() {
    while (Date.now() < end) {
      const n = String(seq++);
      const t0 = performance.now();
      try {
        const res = await pool.request({
          method: 'POST',
          path: '/api/v1/devices/events',
          headers: { 'content-type': 'application/json' },
          body: parts.join(n),
        });
        const body = await res.body.text();
        if (res.statusCode === 202) out.accepted += JSON.parse(body).accepted;
        else out.failed += 1;
      } catch {
        out.failed += 1;
      }
      out.requests += 1;
      out.latencies.push(performance.now() - t0);
    }
  }
  await Promise.all(Array.from({ length: connections }, loop));
  out.seconds = (Date.now() - started) / 1000;
  return out;
}

export const percentileOf = (sorted, p) =>
  Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] * 10) / 10;
