import type { EncodedEvents } from './event-rows.js';
import type { RowFormat } from './event-stream.js';

/** One batch the intake accepted: the app, when it was received (epoch ms), its encoded rows. */
export interface AcceptedBatch {
  appId: string;
  receivedMs: number;
  encoded: EncodedEvents;
}

/** What ClickHouse refused as data, with its refusal; everything else in the call was stored. */
export interface RefusedRows<T> {
  entry: T;
  error: unknown;
}

/**
 * Where the intake and the update checks' recorder leave device events (the Redis stream the ingest workers
 * read). The intake answers only after `append` resolves, so a batch it reported as accepted is durable.
 */
export interface EventsStore {
  /** Appends the batches, each as one stream entry, in one round trip; throws when any was not written. */
  append(batches: readonly AcceptedBatch[]): Promise<void>;
}

/** Where the ingest writer stores the rows of stream entries (ClickHouse `device_events`). */
export interface EventRowsStore {
  /**
   * Inserts the rows of every entry. Entries refused as data are answered, not thrown, so one bad entry
   * never holds the others back; a failure to reach the database is thrown (the writer retries the batch,
   * and a re-insert of stored rows collapses on their event ids).
   */
  insert<T extends { text: string; rows: number; format: RowFormat }>(
    entries: readonly T[],
  ): Promise<Array<RefusedRows<T>>>;
}
