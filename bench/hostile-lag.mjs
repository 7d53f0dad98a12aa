// The normal events' lag in the hostile benchmark (see bench/hostile.mjs): from the 202 of a batch to its
// rows in ClickHouse.

/**
 * Lag of the normal events, accepted (the 202 received) to visible (the first event's row found by a poll
 * of ClickHouse every `intervalMs`; a batch is one stream entry, so its rows are inserted together). Each
 * batch is filed under the phase in which it was accepted.
 */
export class LagTracker {
  constructor(ch, appId, intervalMs) {
    Object.assign(this, { ch, appId, intervalMs, phase: 'baseline', pending: new Map(), lags: {} });
    this.stopped = false;
  }

  accepted(eventId) {
    this.pending.set(eventId, { at: Date.now(), phase: this.phase });
  }

  async poll() {
    const ids = [...this.pending.keys()].slice(0, 1000);
    if (ids.length === 0) return;
    const rs = await this.ch.query({
      query: `SELECT event_id FROM device_events WHERE app_id = '${this.appId}'
              AND event_id IN (${ids.map((id) => `'${id}'`).join(',')})`,
      format: 'JSONEachRow',
    });
    const seen = await rs.json();
    const now = Date.now();
    for (const { event_id: id } of seen) {
      const batch = this.pending.get(id);
      if (!batch) continue;
      this.pending.delete(id);
      this.lags[batch.phase] ??= [];
      this.lags[batch.phase].push(now - batch.at);
    }
  }

  start() {
    this.loop = (async () => {
      while (!this.stopped) {
        await this.poll().catch(() => {});
        await new Promise((r) => setTimeout(r, this.intervalMs));
      }
    })();
  }

  /** Stops polling once every accepted batch is visible, or after `timeoutMs`; returns batches never seen. */
  async drain(timeoutMs) {
    const end = Date.now() + timeoutMs;
    while (this.pending.size > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    this.stopped = true;
    await this.loop;
    return this.pending.size;
  }

  summary(phase) {
    const xs = [...(this.lags[phase] ?? [])].sort((a, b) => a - b);
    const at = (p) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor(xs.length * p))] : null);
    return { batches: xs.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: xs.at(-1) ?? null };
  }
}
