import { type ClickHouseClient, chIdentifier, chInt, chString } from '../platform/clickhouse.js';
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
 *
 * With `cluster` (CLICKHOUSE_CLUSTER) the rows are in the `_local` tables of every shard: the partitions
 * of all shards are listed (cluster() over system.parts) and each is dropped ON CLUSTER, so every shard,
 * and through replication every replica, loses it.
 */
export async function dropExpiredPartitions(
  ch: ClickHouseClient,
  retentionDays: number,
  log?: Logger,
  cluster?: string,
): Promise<DroppedPartition[]> {
  const cutoffRs = await ch.query({
    query: `SELECT toYYYYMMDD(today() - ${chInt(retentionDays)}) AS cutoff, currentDatabase() AS db`,
    format: 'JSONEachRow',
  });
  const [first] = await cutoffRs.json<{ cutoff: number | string; db: string }>();
  const cutoff = Number(first?.cutoff);
  const db = chString(first?.db ?? '');
  const parts = cluster ? `cluster(${chIdentifier(cluster)}, system, parts)` : 'system.parts';
  const rs = await ch.query({
    query: `
      SELECT DISTINCT p.table AS table, p.partition AS partition
      FROM ${parts} AS p
      WHERE p.database = ${db} AND p.active
        AND p.table IN (
          SELECT name FROM system.tables
          WHERE database = ${db} AND startsWith(partition_key, 'toYYYYMMDD(')
            ${cluster ? "AND endsWith(name, '_local')" : ''}
        )
      ORDER BY table, partition`,
    format: 'JSONEachRow',
  });
  const on = cluster ? ` ON CLUSTER ${chIdentifier(cluster)}` : '';
  const dropped: DroppedPartition[] = [];
  for (const { table, partition } of await rs.json<DroppedPartition>()) {
    if (!/^\d{8}$/.test(partition) || Number(partition) >= cutoff) continue;
    await ch.command({
      query: `ALTER TABLE ${chIdentifier(table)}${on} DROP PARTITION ${chInt(Number(partition))}`,
    });
    dropped.push({ table, partition });
    log?.info({ table, partition }, 'expired partition dropped');
  }
  return dropped;
}
