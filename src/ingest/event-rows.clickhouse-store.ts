import type { RowFormat } from '../intake/event-stream.js';
import type { ClickHouseClient } from '../platform/clickhouse.js';
import { insertIsolating } from './clickhouse-insert.js';
import type { EventRowsStore, RefusedRows } from './event-rows.store.js';

/** `device_events` in ClickHouse; a refused batch is split to find the entries it refuses (insertIsolating). */
export class ClickHouseEventRowsStore implements EventRowsStore {
  constructor(private readonly clickhouse: ClickHouseClient) {}

  insert<T extends { text: string; rows: number; format: RowFormat }>(
    entries: readonly T[],
  ): Promise<Array<RefusedRows<T>>> {
    return insertIsolating(this.clickhouse, entries);
  }
}
