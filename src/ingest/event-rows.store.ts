import type { RowFormat } from '../intake/event-stream.js';

/** What ClickHouse refused as data, with its refusal; everything else in the call was stored. */
export interface RefusedRows<T> {
  entry: T;
  error: unknown;
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
