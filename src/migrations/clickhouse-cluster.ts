import { chIdentifier, chString } from '../platform/clickhouse.js';

/** Where the migration set is applied in its cluster form (CLICKHOUSE_CLUSTER). */
export interface ClusterTarget {
  /** The cluster's name in the servers' remote_servers. */
  cluster: string;
  /** The database, the same on every server. */
  database: string;
}

/** What the statements seen so far created: tables now `<name>_local` on every shard. */
export interface ClusterState {
  tables: Set<string>;
}

export class ClusterFormError extends Error {}

const CREATE_TABLE = /^CREATE TABLE IF NOT EXISTS ([A-Za-z_][A-Za-z0-9_]*)\s*\(/;
const ENGINE = /\bENGINE\s*=\s*((?:Replacing|Aggregating|Summing|Collapsing)?MergeTree)(?:\(([^)]*)\))?/;
const CREATE_VIEW =
  /^CREATE MATERIALIZED VIEW IF NOT EXISTS ([A-Za-z_][A-Za-z0-9_]*) TO ([A-Za-z_][A-Za-z0-9_]*) AS\b/;
const INSERT_SELECT = /^INSERT INTO ([A-Za-z_][A-Za-z0-9_]*)\s+SELECT\b/;

/** The ZooKeeper path of a local table's replicas: one per shard and database ({shard} is a server macro). */
export function replicaPath(database: string, table: string): string {
  return `/clickhouse/tables/{shard}/${database}/${table}`;
}

/**
 * The cluster form of one statement of sql/clickhouse, so that one migration set serves one server and a
 * cluster alike:
 *
 * - `CREATE TABLE IF NOT EXISTS t (...) ENGINE = XMergeTree ...` becomes `t_local`, created ON CLUSTER as
 *   ReplicatedXMergeTree (replicas of a shard share the ZooKeeper path of replicaPath), and `t`, created
 *   ON CLUSTER as a Distributed table over the `t_local` tables sharded by sipHash64(app_id): every row of
 *   an app is on one shard, so a re-sent event meets its first copy there (FINAL, uniqExact of the event
 *   hashes) and per-app reads stay exact. Every table must have an app_id column.
 * - `CREATE MATERIALIZED VIEW IF NOT EXISTS v TO t AS SELECT ... FROM s` is created ON CLUSTER from
 *   `s_local` into `t_local`: every shard rolls up its own rows, which are all its apps' rows.
 * - `INSERT INTO t SELECT ...` (a backfill) runs as written, on the Distributed tables: rows are read from
 *   every shard and sent to their app's shard.
 *
 * Anything else is refused (ClusterFormError), so a migration that the cluster form does not cover yet is
 * found by the tests rather than applied half-way.
 */
export function clusterStatements(statement: string, target: ClusterTarget, state: ClusterState): string[] {
  const db = chIdentifier(target.database);
  const on = `ON CLUSTER ${chIdentifier(target.cluster)}`;
  const table = CREATE_TABLE.exec(statement);
  if (table) {
    const name = table[1]!;
    const engine = ENGINE.exec(statement);
    if (!engine)
      throw new ClusterFormError(`table ${name}: only MergeTree family engines have a cluster form`);
    if (!/\bapp_id\b/.test(statement))
      throw new ClusterFormError(`table ${name}: no app_id column to shard it by`);
    const local = `${name}_local`;
    const args = [chString(replicaPath(target.database, local)), "'{replica}'"];
    if (engine[2]?.trim()) args.push(engine[2].trim());
    const localStatement = statement
      .replace(CREATE_TABLE, `CREATE TABLE IF NOT EXISTS ${db}.${chIdentifier(local)} ${on} (`)
      .replace(ENGINE, `ENGINE = Replicated${engine[1]}(${args.join(', ')})`);
    state.tables.add(name);
    return [
      localStatement,
      `CREATE TABLE IF NOT EXISTS ${db}.${chIdentifier(name)} ${on} AS ${db}.${chIdentifier(local)}
ENGINE = Distributed(${chIdentifier(target.cluster)}, ${db}, ${chIdentifier(local)}, sipHash64(app_id))`,
    ];
  }
  const view = CREATE_VIEW.exec(statement);
  if (view) {
    const [, name, to] = view;
    if (!state.tables.has(to!)) throw new ClusterFormError(`view ${name}: ${to} is not a table of the set`);
    let body = statement.slice(view[0].length);
    // The source tables, wherever the SELECT names them, become the shard's local tables.
    body = body.replace(
      /\b(FROM|JOIN)\s+([A-Za-z_][A-Za-z0-9_]*)\b/g,
      (whole, word: string, source: string) =>
        state.tables.has(source) ? `${word} ${db}.${chIdentifier(`${source}_local`)}` : whole,
    );
    return [
      `CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.${chIdentifier(name!)} ${on} TO ${db}.${chIdentifier(`${to}_local`)} AS${body}`,
    ];
  }
  if (INSERT_SELECT.test(statement)) return [statement];
  throw new ClusterFormError(`no cluster form for: ${statement.slice(0, 80)}`);
}
