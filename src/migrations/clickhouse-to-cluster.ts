import { type ClickHouseClient, chIdentifier, chString } from '../platform/clickhouse.js';
import type { Logger } from '../platform/logger.js';
import { type ClusterState, type ClusterTarget, clusterStatements } from './clickhouse-cluster.js';
import { migrateClickHouse } from './clickhouse-migrator.js';
import { readMigrations, splitStatements } from './migration-files.js';

/** Suffix of a table of the single-server form once it is set aside. */
export const SINGLE_SUFFIX = '_single';

export interface MovedTable {
  table: string;
  rows: number;
}

export interface ClusterMove {
  /** False when there was nothing left to do: the database was in its cluster form, its rows copied. */
  moved: boolean;
  /** The tables whose rows this call copied (the others are rollups their views rebuilt). */
  copied: MovedTable[];
}

/** The tables and views of the migration set, and which tables views write to (rollups). */
async function setShape(target: ClusterTarget) {
  const state: ClusterState = { tables: new Set() };
  const views: string[] = [];
  const rollups = new Set<string>();
  for (const file of await readMigrations('clickhouse')) {
    for (const statement of splitStatements(file.sql)) {
      const view = /^CREATE MATERIALIZED VIEW IF NOT EXISTS (\w+) TO (\w+)/.exec(statement);
      if (view) {
        views.push(view[1]!);
        rollups.add(view[2]!);
      }
      clusterStatements(statement, target, state);
    }
  }
  return { tables: [...state.tables], views, rollups };
}

async function engines(ch: ClickHouseClient, database: string): Promise<Map<string, string>> {
  const rs = await ch.query({
    query: `SELECT name, engine FROM system.tables WHERE database = ${chString(database)}`,
    format: 'JSONEachRow',
  });
  return new Map((await rs.json<{ name: string; engine: string }>()).map((t) => [t.name, t.engine]));
}

async function count(ch: ClickHouseClient, table: string): Promise<number> {
  const rs = await ch.query({ query: `SELECT count() AS n FROM ${table}`, format: 'JSONEachRow' });
  return Number((await rs.json<{ n: string }>())[0]?.n ?? 0);
}

/**
 * Moves a database of the single-server form onto a cluster the server has become a member of
 * (docs/operations/processes-and-scaling.md, "Moving one ClickHouse server onto a cluster"): its views are
 * dropped and its tables renamed to `<table>_single`, the migration set is applied in its cluster form, and
 * the raw rows are copied into the Distributed tables, which send each app's rows to its shard; the
 * cluster's views rebuild the rollups from them as they arrive, so every count is the same as before. The
 * `_single` tables are kept for the operator to compare and drop.
 *
 * Safe to run again after an interruption: a table already set aside is not renamed twice, and a copy
 * whose row count already matches is not made again. Ingest workers must be stopped meanwhile (events
 * wait in the Redis streams); `ch` is a client of the server holding the data, in its database.
 */
export async function moveToCluster(
  ch: ClickHouseClient,
  target: ClusterTarget,
  log?: Logger,
): Promise<ClusterMove> {
  const db = chIdentifier(target.database);
  const before = await engines(ch, target.database);
  const migrations = before.get('schema_migrations');
  if (migrations?.startsWith('Replicated') && !before.has(`schema_migrations${SINGLE_SUFFIX}`))
    return { moved: false, copied: [] };
  const { tables, views, rollups } = await setShape(target);
  if (!migrations?.startsWith('Replicated')) {
    // The single form's views read the raw table directly: dropped, so nothing is rolled up twice.
    for (const view of views) await ch.command({ query: `DROP TABLE IF EXISTS ${db}.${chIdentifier(view)}` });
  }
  let renamed = 0;
  for (const table of [...tables, 'schema_migrations']) {
    const engine = before.get(table);
    if (engine === undefined || engine === 'Distributed' || engine.startsWith('Replicated')) continue;
    renamed += 1;
    await ch.command({
      query: `RENAME TABLE ${db}.${chIdentifier(table)} TO ${db}.${chIdentifier(`${table}${SINGLE_SUFFIX}`)}`,
    });
    log?.info({ table }, 'single-server table set aside');
  }
  await ch.command({
    query: `CREATE DATABASE IF NOT EXISTS ${db} ON CLUSTER ${chIdentifier(target.cluster)}`,
  });
  await migrateClickHouse(ch, log, target);
  const after = await engines(ch, target.database);
  const copied: MovedTable[] = [];
  for (const table of tables) {
    const single = `${table}${SINGLE_SUFFIX}`;
    if (rollups.has(table) || !after.has(single)) continue;
    const source = `${db}.${chIdentifier(single)}`;
    const rows = await count(ch, source);
    if ((await count(ch, `${db}.${chIdentifier(table)}`)) === rows) continue;
    await ch.command({
      query: `INSERT INTO ${db}.${chIdentifier(table)} SELECT * FROM ${source}`,
      clickhouse_settings: { insert_distributed_sync: 1 },
    });
    copied.push({ table, rows });
    log?.info({ table, rows }, 'rows copied onto the cluster');
  }
  return { moved: renamed > 0 || copied.length > 0, copied };
}
