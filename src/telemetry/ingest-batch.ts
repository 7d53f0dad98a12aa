import { EVENT_TYPES, type EventType, type StreamEntry } from './event-stream.js';
import { minuteOf } from './failure-counters.js';

/** A row of ClickHouse's device_events, as JSONEachRow takes it (times as unix seconds). */
export interface EventRow {
  ts: number;
  received_at: number;
  app_id: string;
  module_id: string;
  device_id: string;
  event_id: string;
  type: EventType;
  channel: string;
  message: string;
}

/** Increments of one per-minute failure counter. */
export interface CounterDelta {
  appId: string;
  moduleId: string;
  minute: number;
  activations: number;
  errors: number;
}

export interface PreparedBatch {
  rows: EventRow[];
  /** Counter increments per stream entry: applied by whoever acknowledges that entry, exactly once. */
  counters: Map<string, CounterDelta[]>;
  /** Apps whose failure counters moved: their error-spike evaluation runs after the batch. */
  apps: Set<string>;
  /** Events of the batch that were not well-formed (the API validates, so normally 0). */
  skipped: number;
  /** Events whose id already occurred earlier in the same batch. */
  duplicates: number;
}

/** A device clock more than this far ahead of the server is not trusted. */
export const MAX_CLOCK_AHEAD_MS = 5 * 60_000;
const DAY_MS = 86_400_000;
const TYPES = new Set<string>(EVENT_TYPES);

/**
 * The event time, unix seconds: the device's `ts` when it is plausible, otherwise the time the API accepted
 * the batch. Implausible means in the future beyond MAX_CLOCK_AHEAD_MS, or so old that retention would drop
 * it at once: such an event is kept (an accepted event is never lost) and counted when it arrived.
 */
export function eventSeconds(ts: unknown, receivedMs: number, retentionDays: number): number {
  let ms = receivedMs;
  if (typeof ts === 'string' || typeof ts === 'number') {
    const parsed = typeof ts === 'number' ? ts : Date.parse(ts);
    if (
      Number.isFinite(parsed) &&
      parsed <= receivedMs + MAX_CLOCK_AHEAD_MS &&
      parsed > receivedMs - (retentionDays - 1) * DAY_MS
    ) {
      ms = parsed;
    }
  }
  return Math.floor(ms / 1000);
}

function isText(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= max;
}

/**
 * Turns stream entries into ClickHouse rows and failure-counter increments. An event id seen twice within
 * the batch (an SDK that re-sent while the first copy was still queued) yields one row and one increment;
 * copies in different batches are collapsed by ClickHouse (see sql/clickhouse/001_device_events.sql).
 * Checks carry no client id: theirs is derived from the entry, so a re-delivered entry yields the same ids.
 */
export function prepareBatch(entries: readonly StreamEntry[], retentionDays: number): PreparedBatch {
  const rows: EventRow[] = [];
  const counters = new Map<string, CounterDelta[]>();
  const apps = new Set<string>();
  const seen = new Set<string>();
  let skipped = 0;
  let duplicates = 0;
  for (const entry of entries) {
    const received = Math.floor(entry.receivedMs / 1000);
    const deltas = new Map<string, CounterDelta>();
    entry.events.forEach((event, index) => {
      if (
        typeof event !== 'object' ||
        event === null ||
        !TYPES.has(event.type) ||
        !isText(event.device_id, 128) ||
        typeof event.module_id !== 'string' ||
        event.module_id.length > 128
      ) {
        skipped += 1;
        return;
      }
      const eventId = event.type === 'check' ? `check/${entry.entryId}/${index}` : event.id;
      if (!isText(eventId, 200)) {
        skipped += 1;
        return;
      }
      const dedupKey = `${entry.appId}\u0000${eventId}`;
      if (seen.has(dedupKey)) {
        duplicates += 1;
        return;
      }
      seen.add(dedupKey);
      const ts = eventSeconds(event.ts, entry.receivedMs, retentionDays);
      rows.push({
        ts,
        received_at: received,
        app_id: entry.appId,
        module_id: event.module_id,
        device_id: event.device_id,
        event_id: eventId,
        type: event.type,
        channel: typeof event.channel === 'string' ? event.channel : '',
        message: typeof event.message === 'string' ? event.message : '',
      });
      if (event.type !== 'activation' && event.type !== 'error') return;
      const minute = minuteOf(ts * 1000);
      const key = `${event.module_id}\u0000${minute}`;
      let delta = deltas.get(key);
      if (!delta) {
        delta = { appId: entry.appId, moduleId: event.module_id, minute, activations: 0, errors: 0 };
        deltas.set(key, delta);
      }
      if (event.type === 'activation') delta.activations += 1;
      else delta.errors += 1;
      apps.add(entry.appId);
    });
    if (deltas.size > 0) counters.set(entry.entryId, [...deltas.values()]);
  }
  return { rows, counters, apps, skipped, duplicates };
}
