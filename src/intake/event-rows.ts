import { counterTargets, minuteOf } from '../spikes/failure-counters.js';

/** The kinds of device event a row records. */
export const EVENT_TYPES = ['download', 'activation', 'error', 'check'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** Types a device may post; `check` is recorded by the API's update check only. */
export const DEVICE_EVENT_TYPES = ['download', 'activation', 'error'] as const;

/** An event as the API (or the check recorder) hands it over, validated. */
export interface EventInput {
  id: string;
  device_id: string;
  /** A release of the app, or '' for the bundle embedded in the app binary. */
  module_id: string;
  type: EventType;
  ts?: string | number;
  message?: string;
  channel?: string;
}

/**
 * A row of ClickHouse's device_events (times as unix seconds) as the JSONEachRow lines of entries written
 * before rows were TabSeparated carried it: empty channel and message left out.
 */
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

/**
 * The devices of a batch for the failure counters of one release and minute: [module id, minute, devices
 * that reported an activation, devices that reported an error], each device once. Which minute and hour
 * counters it feeds follows from the minute and the time the batch was received (counterTargets).
 */
export type DeviceCounter = [moduleId: string, minute: number, activations: string[], errors: string[]];

export interface EncodedEvents {
  /** The rows as TabSeparated text in ROW_COLUMNS order, one line each, ready to be inserted as they are. */
  text: string;
  rows: number;
  counters: DeviceCounter[];
  /**
   * The client network the batch came from (IPv4 /24, IPv6 /48: src/edge/client-address.ts): error-spike
   * decisions count the networks of failing devices. Absent for rows the service made itself (checks).
   */
  network?: string;
}

/** How the devices of a batch feed the failure counters. */
export interface CounterOptions {
  /** The client network of the batch (see EncodedEvents.network). */
  network?: string;
  /** Whether a device's report about a release may move the counters (the per-address bound). */
  counts?: (moduleId: string, deviceId: string) => boolean;
}

/**
 * The columns of a row's text, in order. TabSeparated rather than JSONEachRow: about 130 bytes an event
 * instead of about 210 (no keys), which every event pays in the API's XADD, Redis's append-only file, the
 * worker's read and ClickHouse's parser. Entries written before carry JSONEachRow rows (event-stream.ts).
 */
export const ROW_COLUMNS = [
  'ts',
  'received_at',
  'app_id',
  'module_id',
  'device_id',
  'event_id',
  'type',
  'channel',
  'message',
] as const;

const NEEDS_ESCAPE = /[\\\t\n\r\0]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '\\0' };

/**
 * A string as a TabSeparated field: backslash, tab, line feed, carriage return and NUL escaped the way
 * ClickHouse reads them back; every other character is taken as it is.
 */
export function tsvField(value: string): string {
  return NEEDS_ESCAPE.test(value) ? value.replace(/[\\\t\n\r\0]/g, (c) => ESCAPES[c]!) : value;
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
 * Turns a validated batch into ClickHouse rows and failure-counter devices, once, where the events are
 * already parsed: the stream then carries rows ready to insert, and ingest workers neither parse nor
 * re-serialise events (they concatenate entries). An id repeated within the batch yields one row; repeats
 * across batches are collapsed by ClickHouse (sql/clickhouse/001_device_events.sql). Events of the embedded
 * bundle (no module), events too old for any alert window, and reports `options.counts` turns down (a
 * device past its address's allowance) are stored but feed no failure counter.
 */
export function encodeEvents(
  appId: string,
  receivedMs: number,
  events: readonly EventInput[],
  retentionDays: number,
  options: CounterOptions = {},
): EncodedEvents {
  const received = Math.floor(receivedMs / 1000);
  const receivedMinute = minuteOf(receivedMs);
  const seen = new Set<string>();
  const counters = new Counters();
  // What is the same for the whole batch is written once, and a module id escaped again only when it
  // changes (building a row object per event was the ingest API's largest own cost once).
  const afterTs = `\t${received}\t${tsvField(appId)}\t`;
  let lastModule: string | undefined;
  let moduleField = '';
  // The start of a row (time, received time, app, module) is made again only when its time or module
  // changes: a batch's events mostly share both.
  let lastTs = Number.NaN;
  let rowStart = '';
  // Lines joined once at the end: the text is then one flat string. Appended line by line (`+=`) it was a
  // rope of a few hundred pieces, which the XADD's socket write walked over and over: that walk cost
  // more CPU than encoding the batch.
  const lines: string[] = [];
  for (const event of events) {
    if (seen.has(event.id)) continue;
    seen.add(event.id);
    const ts = eventSeconds(event.ts, receivedMs, retentionDays);
    if (event.module_id !== lastModule || ts !== lastTs) {
      if (event.module_id !== lastModule) {
        lastModule = event.module_id;
        moduleField = tsvField(lastModule);
      }
      lastTs = ts;
      rowStart = `${ts}${afterTs}${moduleField}\t`;
    }
    lines.push(
      `${rowStart}${tsvField(event.device_id)}\t${tsvField(event.id)}\t${event.type}\t${event.channel ? tsvField(event.channel) : ''}\t${event.message ? tsvField(event.message) : ''}\n`,
    );
    if (
      (event.type === 'activation' || event.type === 'error') &&
      event.module_id !== '' &&
      (options.counts === undefined || options.counts(event.module_id, event.device_id))
    ) {
      counters.add(event.module_id, minuteOf(ts * 1000), receivedMinute, event.type, event.device_id);
    }
  }
  const list = counters.list();
  const text = lines.join('');
  const rows = lines.length;
  return options.network === undefined
    ? { text, rows, counters: list }
    : { text, rows, counters: list, network: options.network };
}

/**
 * The failure-counter devices of JSONEachRow rows, read back from their text: for stream entries written
 * before entries carried their counters' devices (those carried JSONEachRow rows).
 */
export function countersFromRows(text: string, receivedMs: number): DeviceCounter[] {
  const counters = new Counters();
  const receivedMinute = minuteOf(receivedMs);
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const row = JSON.parse(line) as Partial<EventRow>;
    if ((row.type !== 'activation' && row.type !== 'error') || !row.module_id || !row.device_id) continue;
    if (typeof row.ts !== 'number') continue;
    counters.add(row.module_id, minuteOf(row.ts * 1000), receivedMinute, row.type, row.device_id);
  }
  return counters.list();
}

interface CounterEntry {
  counter: DeviceCounter;
  sets: [Set<string>, Set<string>];
}

class Counters {
  private readonly byKey = new Map<string, CounterEntry>();
  // The entry of the last release and minute (null: one that feeds no counter). A batch's events nearly
  // all fall in one, and working its key out again for each event was a visible share of encoding.
  private last: { moduleId: string; minute: number; receivedMinute: number; entry: CounterEntry | null } = {
    moduleId: '',
    minute: Number.NaN,
    receivedMinute: Number.NaN,
    entry: null,
  };

  add(
    moduleId: string,
    minute: number,
    receivedMinute: number,
    type: 'activation' | 'error',
    device: string,
  ) {
    const last = this.last;
    const entry =
      moduleId === last.moduleId && minute === last.minute && receivedMinute === last.receivedMinute
        ? last.entry
        : this.entryOf(moduleId, minute, receivedMinute);
    if (entry === null) return;
    const slot = type === 'activation' ? 0 : 1;
    if (entry.sets[slot].has(device)) return;
    entry.sets[slot].add(device);
    entry.counter[(slot + 2) as 2 | 3].push(device);
  }

  private entryOf(moduleId: string, minute: number, receivedMinute: number): CounterEntry | null {
    const target = counterTargets(minute, receivedMinute);
    let entry: CounterEntry | null = null;
    if (target.minute !== null || target.hour !== null) {
      const key = `${moduleId}\u0000${minute}`;
      entry = this.byKey.get(key) ?? null;
      if (entry === null) {
        entry = { counter: [moduleId, minute, [], []], sets: [new Set(), new Set()] };
        this.byKey.set(key, entry);
      }
    }
    this.last = { moduleId, minute, receivedMinute, entry };
    return entry;
  }

  list(): DeviceCounter[] {
    return [...this.byKey.values()].map((e) => e.counter);
  }
}
