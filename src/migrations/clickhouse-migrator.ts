import type { ClickHouseClient } from '../platform/clickhouse.js';
import { chIdentifier, chString } from '../platform/clickhouse.js';
import type { Logger } from '../platform/logger.js';
import { type ClusterState, type ClusterTarget, clusterStatements } from './clickhouse-cluster.js';
import { readMigrations, splitStatements } from './migration-files.js';

/** The table of applied migrations: on the one server, or replicated to every server of the cluster. */
function migrationsTable(cluster?: ClusterTarget): string {
  const columns = '(name String, checksum String, applied_at DateTime)';
  if (!cluster) return `CREATE TABLE IF NOT EXISTS schema_migrations ${columns} ENGINE = Log`;
  // One replicated table with every server as a replica (a path without {shard}): migrate may run
  // against any server and sees what was applied through another.
  const db = chIdentifier(cluster.database);
  const path = chString(`/clickhouse/tables/all/${cluster.database}/schema_migrations`);
  return `CREATE TABLE IF NOT EXISTS ${db}.schema_migrations ON CLUSTER ${chIdentifier(cluster.cluster)} ${columns}
    ENGINE = ReplicatedMergeTree(${path}, '{replica}') ORDER BY name`;
}

/**
 * Applies the files of sql/clickhouse not yet recorded in the database's schema_migrations table.
 * ClickHouse has no transactions: statements are written to be re-runnable (IF NOT EXISTS), so a file
 * interrupted half-way is simply applied again.
 *
 * With `cluster` (CLICKHOUSE_CLUSTER), the same files are applied in their cluster form
 * (clickhouse-cluster.ts): replicated `_local` tables and Distributed tables over them, made ON CLUSTER,
 * so the client may be connected to any server of it. Backfills insert synchronously into the shards.
 */
export async function migrateClickHouse(
  ch: ClickHouseClient,
  log?: Logger,
  cluster?: ClusterTarget,
): Promise<string[]> {
  await ch.command({ query: migrationsTable(cluster) });
  const rs = await ch.query({ query: 'SELECT name FROM schema_migrations', format: 'JSONEachRow' });
  const done = new Set((await rs.json<{ name: string }>()).map((r) => r.name));
  const applied: string[] = [];
  const state: ClusterState = { tables: new Set() };
  for (const file of await readMigrations('clickhouse')) {
    // Every file is put in its cluster form, applied or not: a later view names an earlier table.
    const statements = splitStatements(file.sql).flatMap((s) =>
      cluster ? clusterStatements(s, cluster, state) : [s],
    );
    if (done.has(file.name)) continue;
    for (const statement of statements) {
      try {
        await ch.command({
          query: statement,
          ...(cluster ? { clickhouse_settings: { insert_distributed_sync: 1 } } : {}),
        });
      } catch (err) {
        throw new Error(`clickhouse migration ${file.name} failed: ${(err as Error).message}`);
      }
    }
    await ch.command({
      query: `INSERT INTO schema_migrations (name, checksum, applied_at) VALUES (${chString(file.name)}, ${chString(
        file.checksum,
      )}, now())`,
    });
    applied.push(file.name);
    log?.info(
      { migration: file.name, ...(cluster ? { cluster: cluster.cluster } : {}) },
      'clickhouse migration applied',
    );
  }
  return applied;
}
