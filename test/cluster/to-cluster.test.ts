import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveToCluster } from '../../src/migrations/clickhouse-to-cluster.js';
import { type ClickHouseClient, chString, createClickHouse } from '../../src/platform/clickhouse.js';
import { fileContext, type SignedIn, signUp } from '../helpers/context.js';
import {
  createApp,
  createRelease,
  makeEvents,
  postEvents,
  storedEvents,
  waitFor,
} from '../integration/telemetry/fixtures.js';
import { clusterEngines, rows, shardClient } from './engines.js';

// A service on one ClickHouse server (shard 1 of the cluster, as an operator's server becomes one), with
// the project's Redis: the single-server form, as it runs before the move.
const engines = clusterEngines();
const ctx = fileContext({ env: { CLICKHOUSE_URL: engines.clickhouseUrls[0]! } });
let owner: SignedIn;
const clients: ClickHouseClient[] = [];
beforeAll(async () => {
  owner = await signUp(ctx.app);
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await ctx.deps.clickhouse.command({
    query: `DROP DATABASE IF EXISTS ${ctx.config.clickhouseDatabase} ON CLUSTER ${engines.clickhouseCluster}`,
  });
});

/** Every count release statistics read, per app, module and type. */
async function snapshot(ch: ClickHouseClient) {
  return {
    raw: await rows(
      ch,
      'SELECT app_id, uniqExact(event_id) AS n FROM device_events GROUP BY app_id ORDER BY app_id',
    ),
    final: await rows(
      ch,
      'SELECT app_id, count() AS n FROM device_events FINAL GROUP BY app_id ORDER BY app_id',
    ),
    minute: await rows(
      ch,
      `SELECT app_id, module_id, type, toUInt32(minute) AS m, uniqExactMerge(events) AS e, uniqCombinedMerge(devices) AS d
       FROM device_events_minute GROUP BY app_id, module_id, type, minute ORDER BY app_id, module_id, type, m`,
    ),
    day: await rows(
      ch,
      `SELECT app_id, module_id, type, uniqExactMerge(events) AS e, uniqCombinedMerge(devices) AS d
       FROM device_events_day GROUP BY app_id, module_id, type ORDER BY app_id, module_id, type`,
    ),
    checks: await rows(
      ch,
      `SELECT app_id, device_id, toUInt32(maxMerge(last_check)) AS last, argMaxMerge(latest_module) AS module
       FROM device_checks_day GROUP BY app_id, device_id ORDER BY app_id, device_id`,
    ),
  };
}

describe('moving a single ClickHouse server onto a cluster (npm run clickhouse:to-cluster)', () => {
  it('keeps every count the same, spreads the apps over the shards, and does nothing the second time', async () => {
    // Apps until both shards will have some (the Distributed tables send an app to sipHash64(app_id) % 2).
    const apps: Array<{ appId: string; moduleId: string }> = [];
    const shardsOf = new Set<number>();
    while (apps.length < 4 || shardsOf.size < 2) {
      expect(apps.length).toBeLessThan(30);
      const appId = await createApp(ctx.deps, owner.workspaceId);
      apps.push({
        appId,
        moduleId: await createRelease(ctx.deps, { workspaceId: owner.workspaceId, appId }),
      });
      const [row] = await rows<{ s: string }>(
        ctx.deps.clickhouse,
        `SELECT sipHash64(${chString(appId)}) % 2 AS s`,
      );
      shardsOf.add(Number(row!.s));
    }
    for (const { appId, moduleId } of apps) {
      const events = [
        ...makeEvents(`move-a-${appId}`, moduleId, 'activation', 30, 6),
        ...makeEvents(`move-e-${appId}`, moduleId, 'error', 6, 2),
      ];
      expect((await postEvents(ctx.app, appId, events)).statusCode).toBe(202);
      expect((await postEvents(ctx.app, appId, events.slice(0, 10))).statusCode).toBe(202);
    }
    const checked = apps[0]!;
    for (const device of ['c1', 'c2', 'c3']) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/updates/check',
        payload: { app_id: checked.appId, device_id: device },
      });
      expect(res.statusCode).toBe(200);
    }
    const ingest = ctx.deps.workers.ingest();
    await ingest.consumer.start();
    try {
      for (const { appId } of apps) {
        const want = appId === checked.appId ? 39 : 36;
        await waitFor(
          `events of ${appId}`,
          async () => (await storedEvents(ctx.deps, appId)) === want,
          60_000,
        );
      }
    } finally {
      await ingest.consumer.stop();
      await ingest.close();
    }
    const before = await snapshot(ctx.deps.clickhouse);
    expect(before.checks).toHaveLength(3);

    const target = { cluster: engines.clickhouseCluster, database: ctx.config.clickhouseDatabase };
    const result = await moveToCluster(ctx.deps.clickhouse, target);
    expect(result.moved).toBe(true);
    expect(result.copied.map((c) => c.table)).toEqual(['device_events']);

    // Read through the other shard's server: the Distributed tables answer the same for every app.
    const other = createClickHouse(engines.clickhouseUrls[1]!, ctx.config.clickhouseDatabase, target.cluster);
    clients.push(other);
    expect(await snapshot(other)).toEqual(before);
    const perShard = await Promise.all(
      [0, 1].map(async (i) => {
        const shard = shardClient(i, ctx.config.clickhouseDatabase);
        clients.push(shard);
        const [row] = await rows<{ n: string }>(
          shard,
          'SELECT uniqExact(app_id) AS n FROM device_events_local',
        );
        return Number(row!.n);
      }),
    );
    expect(perShard[0]! + perShard[1]!).toBe(apps.length);
    expect(Math.min(...perShard)).toBeGreaterThan(0);

    expect(await moveToCluster(ctx.deps.clickhouse, target)).toEqual({ moved: false, copied: [] });
  });
});
