import type { RedisKeys } from '../platform/redis.js';

/**
 * The device event stream: the API appends one entry per accepted request (and per batch of recorded update
 * checks); ingest workers read it through one consumer group and delete entries once they are stored.
 *
 * One stream per deployment: each entry carries a whole batch (up to 1,000 events), so 100k events/s is
 * about 1,000 entries/s, well within one Redis node. Sharding would add streams `events:<n>` read together
 * by every worker.
 */
export const EVENT_TYPES = ['download', 'activation', 'error', 'check'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** Types a device may post; `check` is recorded by the API's update check only. */
export const DEVICE_EVENT_TYPES = ['download', 'activation', 'error'] as const;

export const INGEST_GROUP = 'ingest';

export function eventStreamKey(keys: RedisKeys): string {
  return keys.global('events');
}

/** Entries that could not be parsed are moved here (never silently dropped) for inspection. */
export function deadLetterKey(keys: RedisKeys): string {
  return keys.global('events:dead');
}

/** One event as carried in a stream entry: the device's fields, or a recorded check. */
export interface StreamEvent {
  /** Client event id; checks have none and get one derived from their entry. */
  id?: string;
  device_id: string;
  module_id: string;
  type: EventType;
  ts?: string | number;
  message?: string;
  channel?: string;
}

export interface StreamEntry {
  entryId: string;
  appId: string;
  /** When the API accepted the batch, epoch milliseconds. */
  receivedMs: number;
  events: StreamEvent[];
}

/**
 * XADD field list of an entry: a = app id, r = received time (ms), n = number of events (lets a worker size
 * its batch without parsing), e = the events as a JSON array.
 */
export function entryFields(appId: string, receivedMs: number, count: number, eventsJson: string): string[] {
  return ['a', appId, 'r', String(receivedMs), 'n', String(count), 'e', eventsJson];
}

export class MalformedEntryError extends Error {}

/** Reads an entry back from its field list; throws MalformedEntryError when it is not one of ours. */
export function parseEntry(entryId: string, fields: readonly string[]): StreamEntry {
  const map = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) map.set(fields[i]!, fields[i + 1]!);
  const appId = map.get('a');
  const receivedMs = Number(map.get('r'));
  const raw = map.get('e');
  if (!appId || !Number.isSafeInteger(receivedMs) || raw === undefined) {
    throw new MalformedEntryError(`entry ${entryId} lacks a, r or e`);
  }
  let events: unknown;
  try {
    events = JSON.parse(raw);
  } catch {
    throw new MalformedEntryError(`entry ${entryId} has invalid JSON`);
  }
  if (!Array.isArray(events)) throw new MalformedEntryError(`entry ${entryId} events are not an array`);
  return { entryId, appId, receivedMs, events: events as StreamEvent[] };
}
