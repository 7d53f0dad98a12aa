import { type ClickHouseClient, chIdentifier, chInt } from '../platform/clickhouse.js';
import type { Logger } from '../platform/logger.js';

export interface DroppedPartition {
  table: string;
  partition: string;
}

/**
 * Retention without TTL clauses (ClickHouse 18.16 has none): drops every day partition older than
 * retentionDays from every table of the database partitioned by toYYYYMMDD (raw events and rollups).
 * Dropping a partition is a metadata operation, so this stays cheap however large the tables are. The
 * cut-off day is computed by the server, in the same time zone as its partition keys.
 */
export async function dropExpiredPartitions(
  ch: ClickHouseClient,
  retentionDays: number,
  log?: Logger,
): Promise<DroppedPartition[]> {
  const cutoffRs = await ch.query({
    query: `SELECT toYYYYMMDD(today() - ${chInt(retentionDays)}) AS cutoff`,
    format: 'JSONEachRow',
  });
  const cutoff = Number((await cutoffRs.json<{ cutoff: number | string }>())[0]?.cutoff);
  const rs = await ch.query({
    query: `
      SELECT DISTINCT p.table AS table, p.partition AS partition
      FROM system.parts AS p
      WHERE p.database = currentDatabase() AND p.active
        AND p.table IN (
          SELECT name FROM system.tables
          WHERE database = currentDatabase() AND startsWith(partition_key, 'toYYYYMMDD(')
        )
      ORDER BY table, partition`,
    format: 'JSONEachRow',
  });
  const dropped: DroppedPartition[] = [];
  for (const { table, partition } of await rs.json<DroppedPartition>()) {
    if (!/^\d{8}$/.test(partition) || Number(partition) >= cutoff) continue;
    await ch.command({
      query: `ALTER TABLE ${chIdentifier(table)} DROP PARTITION ${chInt(Number(partition))}`,
    });
    dropped.push({ table, partition });
    log?.info({ table, partition }, 'expired partition dropped');
  }
  return dropped;
}
