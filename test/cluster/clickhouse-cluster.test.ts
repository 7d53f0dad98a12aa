import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropExpiredPartitions } from '../../src/ingest/retention.js';
import { chString } from '../../src/platform/clickhouse.js';
import { fileContext, type SignedIn, signUp } from '../helpers/context.js';
import {
  createApp,
  createRelease,
  makeEvents,
  postEvents,
  storedEvents,
  waitFor,
} from '../integration/telemetry/fixtures.js';
import { clusterEnv, rows, shardClient } from './engines.js';

const ctx = fileContext({ env: clusterEnv() });
let owner: SignedIn;
const shards: Array<ReturnType<typeof shardClient>> = [];
beforeAll(async () => {
  owner = await signUp(ctx.app);
  shards.push(shardClient(0, ctx.config.clickhouseDatabase), shardClient(1, ctx.config.clickhouseDatabase));
});
afterAll(async () => {
  for (const shard of shards) await shard.close();
});

const TABLES = ['device_events', 'device_events_minute', 'device_events_day', 'device_checks_day'];

async function countOn(shard: number, table: string, appId: string): Promise<number> {
  const [row] = await rows<{ n: string }>(
    shards[shard]!,
    `SELECT count() AS n FROM ${table}_local WHERE app_id = ${chString(appId)}`,
  );
  return Number(row?.n ?? 0);
}

describe('the migration set on a two-shard ClickHouse cluster (CLICKHOUSE_CLUSTER)', () => {
  it('makes replicated local tables and Distributed tables on every shard, views feeding the local rollups', async () => {
    for (const shard of shards) {
      const tables = await rows<{ name: string; engine: string }>(
        shard,
        'SELECT name, engine FROM system.tables WHERE database = currentDatabase() ORDER BY name',
      );
      const engines = new Map(tables.map((t) => [t.name, t.engine]));
      for (const table of TABLES) {
        expect(engines.get(table)).toBe('Distributed');
        expect(engines.get(`${table}_local`)).toMatch(/^Replicated(Replacing|Aggregating)MergeTree$/);
      }
      for (const view of ['device_events_minute_mv', 'device_events_day_mv', 'device_checks_day_mv'])
        expect(engines.get(view)).toBe('MaterializedView');
      expect(engines.get('schema_migrations')).toBe('ReplicatedMergeTree');
      const applied = await rows<{ name: string }>(shard, 'SELECT name FROM schema_migrations ORDER BY name');
      expect(applied.map((r) => r.name)).toEqual(['001_device_events.sql', '002_device_checks_day.sql']);
    }
  });

  it('keeps each app on one shard, so re-sent events collapse and reads through the Distributed tables are exact', async () => {
    // Apps until both shards have some: the Distributed tables send an app to shard sipHash64(app_id) % 2.
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
      const events = makeEvents(`shard-${appId}`, moduleId, 'activation', 40, 10);
      // The same batch twice (a device retrying), and a part of it a third time.
      for (const batch of [events, events, events.slice(0, 15)])
        expect((await postEvents(ctx.app, appId, batch)).statusCode).toBe(202);
    }
    const ingest = ctx.deps.workers.ingest();
    await ingest.consumer.start();
    try {
      for (const { appId } of apps)
        await waitFor(`events of ${appId}`, async () => (await storedEvents(ctx.deps, appId)) === 40, 60_000);
    } finally {
      await ingest.consumer.stop();
      await ingest.close();
    }
    const used = new Set<number>();
    for (const { appId } of apps) {
      // Every table's rows of the app on one shard, none on the other.
      const counts = await Promise.all(
        TABLES.filter((t) => t !== 'device_checks_day').map(async (t) => [
          await countOn(0, t, appId),
          await countOn(1, t, appId),
        ]),
      );
      const home = counts[0]![0]! > 0 ? 0 : 1;
      used.add(home);
      for (const pair of counts) {
        expect(pair[home]).toBeGreaterThan(0);
        expect(pair[1 - home]).toBe(0);
      }
      // Exact through the Distributed tables: FINAL collapses the re-sent rows, the rollups count each once.
      const [raw] = await rows<{ n: string }>(
        ctx.deps.clickhouse,
        `SELECT count() AS n FROM device_events FINAL WHERE app_id = ${chString(appId)}`,
      );
      expect(Number(raw!.n)).toBe(40);
      const [minute] = await rows<{ events: string; devices: string }>(
        ctx.deps.clickhouse,
        `SELECT uniqExactMerge(events) AS events, uniqCombinedMerge(devices) AS devices
         FROM device_events_minute WHERE app_id = ${chString(appId)}`,
      );
      expect(Number(minute!.events)).toBe(40);
      expect(Number(minute!.devices)).toBe(10);
      const [day] = await rows<{ events: string }>(
        ctx.deps.clickhouse,
        `SELECT uniqExactMerge(events) AS events FROM device_events_day WHERE app_id = ${chString(appId)}`,
      );
      expect(Number(day!.events)).toBe(40);
    }
    expect(used.size).toBe(2);
  });

  it("retention drops expired partitions from every shard's local tables", async () => {
    const old = Math.floor(Date.now() / 1000) - 200 * 86400;
    const apps = Array.from({ length: 8 }, (_, i) => `00000000-0000-4000-8000-00000000000${i}`);
    // Straight into the Distributed table (the API clamps old times): rows of old days on both shards.
    await ctx.deps.clickhouse.insert({
      table: 'device_events',
      values: apps.map((app_id, i) => ({
        ts: old,
        received_at: old,
        app_id,
        module_id: 'm',
        device_id: `d${i}`,
        event_id: `old-${i}`,
        type: 'error',
        channel: 'production',
        message: '',
      })),
      format: 'JSONEachRow',
    });
    const oldRows = async (shard: number) => {
      const [row] = await rows<{ n: string }>(
        shards[shard]!,
        `SELECT count() AS n FROM device_events_local WHERE ts < now() - 100 * 86400`,
      );
      return Number(row!.n);
    };
    expect((await oldRows(0)) > 0 && (await oldRows(1)) > 0).toBe(true);
    const dropped = await dropExpiredPartitions(
      ctx.deps.clickhouse,
      90,
      undefined,
      ctx.config.clickhouseCluster!,
    );
    expect(new Set(dropped.map((d) => d.table))).toEqual(
      new Set(['device_events_local', 'device_events_minute_local', 'device_events_day_local']),
    );
    for (const shard of [0, 1]) {
      await waitFor(`shard ${shard + 1} without old rows`, async () => (await oldRows(shard)) === 0);
      const [rollup] = await rows<{ n: string }>(
        shards[shard]!,
        'SELECT count() AS n FROM device_events_day_local WHERE day < now() - 100 * 86400',
      );
      expect(Number(rollup!.n)).toBe(0);
    }
    // The recent rows stay.
    expect(
      await storedEvents(
        ctx.deps,
        (await rows<{ a: string }>(ctx.deps.clickhouse, 'SELECT any(app_id) AS a FROM device_events'))[0]!.a,
      ),
    ).toBeGreaterThan(0);
  });
});
