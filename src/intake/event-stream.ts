import type { RedisKeys } from '../platform/redis.js';
import { countersFromRows, type DeviceCounter } from './event-rows.js';

/**
 * The device event streams: the API appends one entry per accepted request (and per batch of recorded update
 * checks) to the stream of its app; ingest workers read every stream through one consumer group each and
 * delete entries once they are stored.
 *
 * Each entry carries a whole batch (up to 1,000 events), so 100k events/s is about 1,000 entries/s, well
 * within one Redis node. INGEST_STREAMS (default 1) spreads apps over that many streams, each with its own
 * hash tag (RedisKeys.ingestShard), so a Redis Cluster spreads them over its masters. An app's batches go
 * to one stream, in order, for as long as the count stays the same.
 */
export const INGEST_GROUP = 'ingest';

/** Ingest stream `index` (0 when there is one). */
export function eventStreamKey(keys: RedisKeys, index = 0): string {
  return keys.ingestShard(index, 'events');
}

/**
 * Entries of stream `index` that cannot be stored (not ours, or refused by ClickHouse) are moved here,
 * beside their stream, never dropped.
 */
export function deadLetterKey(keys: RedisKeys, index = 0): string {
  return keys.ingestShard(index, 'events:dead');
}

/** How an entry's rows are written: TabSeparated in ROW_COLUMNS order, or JSONEachRow in older entries. */
export type RowFormat = 'TabSeparated' | 'JSONEachRow';

export interface StreamEntry {
  entryId: string;
  appId: string;
  /** When the API accepted the batch, epoch milliseconds. */
  receivedMs: number;
  rows: number;
  counters: DeviceCounter[];
  /** Lines of device_events, in `format`. */
  text: string;
  format: RowFormat;
  /** The client network the batch came from; absent for the service's own rows and older entries. */
  network?: string;
}

/**
 * XADD field list of an entry: a = app id, r = received time (ms), n = number of rows, d = failure-counter
 * devices as JSON (event-rows.ts, DeviceCounter), w = the client network of the batch (when it came from
 * a device), t = the rows as TabSeparated text (ROW_COLUMNS). Entries
 * of earlier versions carried the rows as JSONEachRow text in `e` instead of `t`, and the oldest ones event
 * counts in `c` instead of `d` (their devices are read back from the rows); workers still read both.
 */
export function entryFields(
  appId: string,
  receivedMs: number,
  encoded: { text: string; rows: number; counters: DeviceCounter[]; network?: string },
): string[] {
  const network = encoded.network === undefined ? [] : ['w', encoded.network];
  return [
    'a',
    appId,
    'r',
    String(receivedMs),
    'n',
    String(encoded.rows),
    'd',
    JSON.stringify(encoded.counters),
    ...network,
    't',
    encoded.text,
  ];
}

export class MalformedEntryError extends Error {}

const isDevice = (d: unknown) => typeof d === 'string' && d.length > 0 && d.length <= 128;

function isCounter(value: unknown): value is DeviceCounter {
  return (
    Array.isArray(value) &&
    value.length === 4 &&
    typeof value[0] === 'string' &&
    value[0].length > 0 &&
    Number.isSafeInteger(value[1]) &&
    Array.isArray(value[2]) &&
    Array.isArray(value[3]) &&
    value[2].every(isDevice) &&
    value[3].every(isDevice)
  );
}

/** Reads an entry back from its field list; throws MalformedEntryError when it is not one of ours. */
export function parseEntry(entryId: string, fields: readonly string[]): StreamEntry {
  const map = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) map.set(fields[i]!, fields[i + 1]!);
  const appId = map.get('a');
  const receivedMs = Number(map.get('r'));
  const rows = Number(map.get('n'));
  const tsv = map.get('t');
  const text = tsv ?? map.get('e');
  const format: RowFormat = tsv === undefined ? 'JSONEachRow' : 'TabSeparated';
  if (!appId || !Number.isSafeInteger(receivedMs) || !Number.isSafeInteger(rows) || text === undefined) {
    throw new MalformedEntryError(`entry ${entryId} lacks a, r, n or its rows (t, or e before)`);
  }
  if (rows > 0 && !text.endsWith('\n')) throw new MalformedEntryError(`entry ${entryId} rows are cut short`);
  let counters: unknown;
  try {
    const devices = map.get('d');
    if (devices === undefined && format !== 'JSONEachRow') throw new Error('no devices');
    counters = devices === undefined ? countersFromRows(text, receivedMs) : JSON.parse(devices);
  } catch {
    throw new MalformedEntryError(`entry ${entryId} has invalid counters or rows`);
  }
  if (!Array.isArray(counters) || !counters.every(isCounter)) {
    throw new MalformedEntryError(`entry ${entryId} has invalid counters`);
  }
  const network = map.get('w');
  // A network is one of clientNetwork's forms: anything else is not ours, and counts as no network.
  const known = network !== undefined && network.length <= 64 && /^[0-9a-f.:/-]+$/.test(network);
  return { entryId, appId, receivedMs, rows, counters, text, format, ...(known ? { network } : {}) };
}
