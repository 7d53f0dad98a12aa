import { randomBytes } from 'node:crypto';
import type { Logger } from '../platform/logger.js';
import { type EventInput, encodeEvents } from './event-rows.js';
import type { AcceptedBatch, EventsStore } from './events.store.js';

/** One update check, counted for analytics (series `checks`, and eligible devices of a channel). */
export interface CheckRecord {
  appId: string;
  deviceId: string;
  channel: string;
  /** The module the device runs after the check: the release served, else its current module, else null. */
  moduleId: string | null;
  /** Epoch milliseconds; defaults to now. */
  at?: number;
}

// Checks have no client id: each gets one unique to this process and call, written into the stream entry,
// so a re-delivered entry re-inserts the same ids (collapsed by ClickHouse). '/' never occurs in client ids.
const PROCESS_TAG = randomBytes(6).toString('hex');
let sequence = 0;

/**
 * Appends checks to the device event stream as `check` events, one entry per app (per 1,000 checks), all in
 * one round trip. The ingest workers store them like device events.
 */
export async function recordChecks(
  events: EventsStore,
  checks: readonly CheckRecord[],
  now: number = Date.now(),
  retentionDays = 90,
): Promise<void> {
  if (checks.length === 0) return;
  const byApp = new Map<string, EventInput[]>();
  for (const c of checks) {
    const app = c.appId.toLowerCase();
    const list = byApp.get(app) ?? [];
    sequence += 1;
    list.push({
      id: `check/${PROCESS_TAG}/${now}/${sequence}`,
      type: 'check',
      device_id: c.deviceId,
      module_id: c.moduleId ?? '',
      channel: c.channel,
      ts: c.at ?? now,
    });
    byApp.set(app, list);
  }
  const batches: AcceptedBatch[] = [];
  for (const [appId, list] of byApp) {
    for (let i = 0; i < list.length; i += 1000) {
      const encoded = encodeEvents(appId, now, list.slice(i, i + 1000), retentionDays);
      batches.push({ appId, receivedMs: now, encoded });
    }
  }
  await events.append(batches);
}

/**
 * Buffers checks in process and writes them every flushMs (or at maxBuffered), so the update check itself
 * never waits on this. A failed write is logged and dropped: checks feed estimates, not billing.
 */
export class CheckRecorder {
  private buffer: CheckRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly events: EventsStore,
    private readonly log: Logger,
    private readonly options: { flushMs?: number; maxBuffered?: number; retentionDays?: number } = {},
  ) {}

  record(check: CheckRecord): void {
    this.buffer.push({ ...check, at: check.at ?? Date.now() });
    if (this.buffer.length >= (this.options.maxBuffered ?? 5000)) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.options.flushMs ?? 1000).unref();
  }

  /** Writes what is buffered; resolves when every earlier flush has finished too. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.buffer;
    this.buffer = [];
    this.flushing = this.flushing.then(async () => {
      if (batch.length === 0) return;
      await recordChecks(this.events, batch, Date.now(), this.options.retentionDays).catch((err: unknown) => {
        this.log.warn({ err, checks: batch.length }, 'update checks not recorded');
      });
    });
    return this.flushing;
  }
}
