import type { EventType } from './event-stream.js';
import { minuteOf } from './failure-counters.js';

/** An event as the API (or the check recorder) hands it over, validated. */
export interface EventInput {
  id: string;
  device_id: string;
  module_id: string;
  type: EventType;
  ts?: string | number;
  message?: string;
  channel?: string;
}

/** A row of ClickHouse's device_events (times as unix seconds); empty channel and message are left out. */
export interface EventRow {
  ts: number;
  received_at: number;
  app_id: string;
  module_id: string;
  device_id: string;
  event_id: string;
  type: EventType;
  channel?: string;
  message?: string;
}

/** Failure-counter increments of a batch: [module id, minute, activations, errors]. */
export type CounterTuple = [moduleId: string, minute: number, activations: number, errors: number];

export interface EncodedEvents {
  /** The rows as JSONEachRow text, one line each, ready to be inserted as they are. */
  text: string;
  rows: number;
  counters: CounterTuple[];
}

/** A device clock more than this far ahead of the server is not trusted. */
export const MAX_CLOCK_AHEAD_MS = 5 * 60_000;
const DAY_MS = 86_400_000;

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

/**
 * Turns a validated batch into ClickHouse rows and failure-counter increments, once, where the events are
 * already parsed: the stream then carries rows ready to insert, and ingest workers neither parse nor
 * re-serialise events (they concatenate entries). An id repeated within the batch yields one row and one
 * increment; repeats across batches are collapsed by ClickHouse (sql/clickhouse/001_device_events.sql).
 */
export function encodeEvents(
  appId: string,
  receivedMs: number,
  events: readonly EventInput[],
  retentionDays: number,
): EncodedEvents {
  const received = Math.floor(receivedMs / 1000);
  const seen = new Set<string>();
  const counters = new Map<string, CounterTuple>();
  let text = '';
  let rows = 0;
  for (const event of events) {
    if (seen.has(event.id)) continue;
    seen.add(event.id);
    const ts = eventSeconds(event.ts, receivedMs, retentionDays);
    const row: EventRow = {
      ts,
      received_at: received,
      app_id: appId,
      module_id: event.module_id,
      device_id: event.device_id,
      event_id: event.id,
      type: event.type,
    };
    if (event.channel) row.channel = event.channel;
    if (event.message) row.message = event.message;
    text += `${JSON.stringify(row)}\n`;
    rows += 1;
    if (event.type !== 'activation' && event.type !== 'error') continue;
    const minute = minuteOf(ts * 1000);
    const key = `${event.module_id}\u0000${minute}`;
    let counter = counters.get(key);
    if (!counter) {
      counter = [event.module_id, minute, 0, 0];
      counters.set(key, counter);
    }
    counter[event.type === 'activation' ? 2 : 3] += 1;
  }
  return { text, rows, counters: [...counters.values()] };
}
