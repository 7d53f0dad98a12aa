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
 * Checks encoded between two turns of the event loop. Encoding costs about 1.5 µs a check, so a flush of
 * 5,000 in one go held every request waiting behind it for 7-10 ms (the update check's p99); slices of
 * this size hold them under a millisecond. One stream entry holds at most this many checks of one app.
 */
export const ENCODE_SLICE = 500;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Appends checks to the device event stream as `check` events, one entry per app (per ENCODE_SLICE
 * checks), all in one round trip. The ingest workers store them like device events.
 */
export async function recordChecks(
  events: EventsStore,
  checks: readonly CheckRecord[],
  now: number = Date.now(),
  retentionDays = 90,
): Promise<void> {
  if (checks.length === 0) return;
  const byApp = new Map<string, CheckRecord[]>();
  for (const c of checks) {
    const app = c.appId.toLowerCase();
    const list = byApp.get(app);
    if (list) list.push(c);
    else byApp.set(app, [c]);
  }
  const batches: AcceptedBatch[] = [];
  let encoded = 0;
  for (const [appId, list] of byApp) {
    for (let i = 0; i < list.length; i += ENCODE_SLICE) {
      if (encoded >= ENCODE_SLICE) {
        await nextTurn();
        encoded = 0;
      }
      const slice = list.slice(i, i + ENCODE_SLICE);
      encoded += slice.length;
      batches.push({
        appId,
        receivedMs: now,
        encoded: encodeEvents(appId, now, slice.map(asEvent), retentionDays),
      });
    }
  }
  await events.append(batches);

  function asEvent(c: CheckRecord): EventInput {
    sequence += 1;
    return {
      id: `check/${PROCESS_TAG}/${now}/${sequence}`,
      type: 'check',
      device_id: c.deviceId,
      module_id: c.moduleId ?? '',
      channel: c.channel,
      ts: c.at ?? now,
    };
  }
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
    // Callers pass a record of their own (no copy needed) and usually its time as well.
    this.buffer.push(check.at === undefined ? { ...check, at: Date.now() } : check);
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
