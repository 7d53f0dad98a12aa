import { describe, expect, it } from 'vitest';
import { ClusterFormError, clusterStatements } from '../../../src/migrations/clickhouse-cluster.js';
import { readMigrations, splitStatements } from '../../../src/migrations/migration-files.js';

const target = { cluster: 'c1', database: 'ota' };

describe('the cluster form of the ClickHouse migration set', () => {
  it('turns a table into a replicated local table and a Distributed one sharded by app, both ON CLUSTER', () => {
    const state = { tables: new Set<string>() };
    const out = clusterStatements(
      `CREATE TABLE IF NOT EXISTS t (app_id String, ts DateTime) ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMMDD(ts)
ORDER BY (app_id, ts)`,
      target,
      state,
    );
    expect(out).toHaveLength(2);
    expect(out[0]).toContain('CREATE TABLE IF NOT EXISTS ota.t_local ON CLUSTER c1 (');
    expect(out[0]).toContain(
      "ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/ota/t_local', '{replica}')",
    );
    expect(out[0]).toContain('PARTITION BY toYYYYMMDD(ts)');
    expect(out[1]).toContain('CREATE TABLE IF NOT EXISTS ota.t ON CLUSTER c1 AS ota.t_local');
    expect(out[1]).toContain('ENGINE = Distributed(c1, ota, t_local, sipHash64(app_id))');
    // A view reads the shard's local rows into the shard's local rollup.
    const rollup = clusterStatements(
      'CREATE TABLE IF NOT EXISTS r (app_id String, n AggregateFunction(uniqExact, UInt64)) ENGINE = AggregatingMergeTree ORDER BY app_id',
      target,
      state,
    );
    expect(rollup[0]).toContain(
      "ReplicatedAggregatingMergeTree('/clickhouse/tables/{shard}/ota/r_local', '{replica}')",
    );
    const [view] = clusterStatements(
      'CREATE MATERIALIZED VIEW IF NOT EXISTS v TO r AS\nSELECT app_id, uniqExactState(1) AS n FROM t GROUP BY app_id',
      target,
      state,
    );
    expect(view).toBe(
      'CREATE MATERIALIZED VIEW IF NOT EXISTS ota.v ON CLUSTER c1 TO ota.r_local AS\nSELECT app_id, uniqExactState(1) AS n FROM ota.t_local GROUP BY app_id',
    );
  });

  it('keeps an engine argument after the replication arguments', () => {
    const [local] = clusterStatements(
      'CREATE TABLE IF NOT EXISTS t (app_id String, v UInt32) ENGINE = ReplacingMergeTree(v) ORDER BY app_id',
      target,
      { tables: new Set() },
    );
    expect(local).toContain(
      "ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/ota/t_local', '{replica}', v)",
    );
  });

  it('refuses what it has no cluster form for, rather than applying it half-way', () => {
    const state = { tables: new Set<string>() };
    expect(() => clusterStatements('ALTER TABLE t ADD COLUMN x String', target, state)).toThrow(
      ClusterFormError,
    );
    expect(() =>
      clusterStatements(
        'CREATE TABLE IF NOT EXISTS n (x String) ENGINE = MergeTree ORDER BY x',
        target,
        state,
      ),
    ).toThrow(/app_id/);
    expect(() =>
      clusterStatements('CREATE TABLE IF NOT EXISTS l (app_id String) ENGINE = Log', target, state),
    ).toThrow(ClusterFormError);
  });

  it('has a cluster form for every statement of sql/clickhouse', async () => {
    const state = { tables: new Set<string>() };
    for (const file of await readMigrations('clickhouse'))
      for (const statement of splitStatements(file.sql))
        expect(clusterStatements(statement, target, state).length).toBeGreaterThan(0);
  });
});
