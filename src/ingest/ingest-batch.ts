import type { StreamEntry } from '../intake/event-stream.js';
import { minuteOf } from '../spikes/failure-counters.js';

/** Devices to add to the failure counters of one release and minute. */
export interface CounterDelta {
  appId: string;
  moduleId: string;
  minute: number;
  /** When the API received the batch, in minutes: decides which counters the minute still feeds. */
  receivedMinute: number;
  activations: readonly string[];
  errors: readonly string[];
  /** The client network of the batch, when it brought errors (the networks of failing devices). */
  networks: readonly string[];
}

export interface PreparedBatch {
  /** The entries' row texts, sent one after the other as the body of an insert (one per row format). */
  chunks: string[];
  rows: number;
  /** Counter devices per stream entry: added by whoever acknowledges that entry. */
  counters: Map<string, CounterDelta[]>;
  /** Apps whose failure counters moved: their error-spike evaluation runs after the batch. */
  apps: Set<string>;
}

/** Gathers stream entries into one insert; the rows were encoded by the API (event-rows.ts). */
export function prepareBatch(entries: readonly StreamEntry[]): PreparedBatch {
  const chunks: string[] = [];
  const counters = new Map<string, CounterDelta[]>();
  const apps = new Set<string>();
  let rows = 0;
  for (const entry of entries) {
    if (entry.rows > 0) chunks.push(entry.text);
    rows += entry.rows;
    if (entry.counters.length === 0) continue;
    apps.add(entry.appId);
    counters.set(
      entry.entryId,
      entry.counters.map(([moduleId, minute, activations, errors]) => ({
        appId: entry.appId,
        moduleId,
        minute,
        receivedMinute: minuteOf(entry.receivedMs),
        activations,
        errors,
        // An entry from before entries named their network counts as one shared network.
        networks: errors.length > 0 ? [entry.network ?? '-'] : [],
      })),
    );
  }
  return { chunks, rows, counters, apps };
}
