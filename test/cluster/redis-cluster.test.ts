import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRedisNode } from '../../scripts/services/cluster.mjs';
import { eventStreamKey } from '../../src/intake/event-stream.js';
import { hashSlot, keyspaceNodes } from '../../src/platform/redis.js';
import { fileContext, type SignedIn, signUp } from '../helpers/context.js';
import {
  createApp,
  createRelease,
  makeEvents,
  postEvents,
  storedEvents,
  waitFor,
} from '../integration/telemetry/fixtures.js';
import { clusterEngines, clusterEnv } from './engines.js';

const ctx = fileContext({ env: clusterEnv() });
let owner: SignedIn;
let admin: Redis;
beforeAll(async () => {
  owner = await signUp(ctx.app);
  admin = new Redis(clusterEngines().redisUrl);
});
afterAll(() => admin.disconnect());

/** Master port of each slot range, as the cluster reports it now. */
async function masterOfSlot(slot: number): Promise<number> {
  const ranges = (await admin.call('CLUSTER', 'SLOTS')) as Array<[number, number, [string, number]]>;
  const range = ranges.find(([from, to]) => slot >= from && slot <= to);
  if (!range) throw new Error(`no master for slot ${slot}`);
  return Number(range[2][1]);
}

const slotOf = (key: string) => hashSlot(/\{([^}]*)\}/.exec(key)![1]!);

/** Single keys the service reads and writes alone (a command of one key needs no shard of its own). */
const UNTAGGED = [/:ratelimit:/, /:signin-failures:/, /:password-resets:/, /:ingest:stream-counts$/];

describe('the service on a Redis Cluster of three masters with a replica each, INGEST_STREAMS=3', () => {
  it('puts the three ingest streams on three masters, and every multi-key family under a hash tag', async () => {
    const masters = await Promise.all(
      [0, 1, 2].map((i) => masterOfSlot(slotOf(eventStreamKey(ctx.deps.keys, i)))),
    );
    expect(new Set(masters).size).toBe(3);

    const appId = await createApp(ctx.deps, owner.workspaceId);
    const moduleId = await createRelease(ctx.deps, { workspaceId: owner.workspaceId, appId });
    const check = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/updates/check',
      payload: { app_id: appId, device_id: 'tagged-device' },
    });
    expect(check.statusCode).toBe(200);
    const events = [...makeEvents(`tags-${appId}`, moduleId, 'error', 10, 2)];
    expect((await postEvents(ctx.app, appId, events)).statusCode).toBe(202);
    const ingest = ctx.deps.workers.ingest();
    await ingest.consumer.start();
    try {
      // The 10 errors, and the update check the API recorded.
      await waitFor('events stored', async () => (await storedEvents(ctx.deps, appId)) === 11, 60_000);
    } finally {
      await ingest.consumer.stop();
      await ingest.close();
    }
    const keys: string[] = [];
    for (const node of keyspaceNodes(ctx.deps.redis)) {
      let cursor = '0';
      do {
        const [next, found] = await node.scan(
          cursor,
          'MATCH',
          `${ctx.config.redisKeyPrefix}*`,
          'COUNT',
          1000,
        );
        cursor = next;
        keys.push(...found);
      } while (cursor !== '0');
    }
    expect(keys.length).toBeGreaterThan(5);
    const untagged = keys.filter((k) => !/\{[^}]+\}/.test(k));
    expect(untagged.filter((k) => !UNTAGGED.some((family) => family.test(k)))).toEqual([]);
  });

  it('loses no accepted event when the master of a stream is killed: its replica takes over', async () => {
    const apps: Array<{ appId: string; moduleId: string }> = [];
    for (let i = 0; i < 6; i++) {
      const appId = await createApp(ctx.deps, owner.workspaceId);
      apps.push({
        appId,
        moduleId: await createRelease(ctx.deps, { workspaceId: owner.workspaceId, appId }),
      });
    }
    const victim = await masterOfSlot(slotOf(eventStreamKey(ctx.deps.keys, 0)));
    const accepted = new Map<string, Set<string>>(apps.map((a) => [a.appId, new Set()]));
    const statuses = new Map<number, number>();
    const unexpected: string[] = [];
    let stop = false;
    let round = 0;
    const traffic = (async () => {
      while (!stop) {
        round += 1;
        for (const { appId, moduleId } of apps) {
          const events = makeEvents(`fo-${round}-${appId}`, moduleId, 'activation', 5);
          const res = await postEvents(ctx.app, appId, events);
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          if (res.statusCode !== 202 && res.statusCode !== 503)
            unexpected.push(`${res.statusCode} ${res.body}`);
          if (res.statusCode === 202) for (const e of events) accepted.get(appId)!.add(e.id);
        }
      }
    })();
    const ingest = ctx.deps.workers.ingest();
    await ingest.consumer.start();
    try {
      await waitFor('traffic flowing', async () => (statuses.get(202) ?? 0) > 30);
      // The node says its own pid: true whichever checkout's scripts started the engines.
      const node = new Redis({ host: '127.0.0.1', port: victim });
      const pid = Number(/process_id:(\d+)/.exec(await node.info('server'))![1]);
      node.disconnect();
      process.kill(pid, 'SIGKILL');
      // The replica is promoted after the node timeout (3 s): a new master answers for the slot.
      await waitFor(
        'a replica promoted',
        async () => (await masterOfSlot(slotOf(eventStreamKey(ctx.deps.keys, 0)))) !== victim,
        60_000,
      );
      const before = statuses.get(202) ?? 0;
      await waitFor('accepting again', async () => (statuses.get(202) ?? 0) > before + 60, 60_000);
      stop = true;
      await traffic;
      // The killed node comes back as a replica of the promoted one.
      await ensureRedisNode(victim);
      for (const { appId } of apps) {
        const want = accepted.get(appId)!.size;
        await waitFor(
          `accepted events of ${appId} stored`,
          async () => (await storedEvents(ctx.deps, appId)) === want,
          60_000,
        );
      }
    } finally {
      stop = true;
      await traffic;
      await ingest.consumer.stop();
      await ingest.close();
    }
    // Only refusals a device retries (503) during the failover, never a 500.
    expect(
      [...statuses.keys()].filter((s) => s !== 202 && s !== 503),
      unexpected.join('\n'),
    ).toEqual([]);
  });
});
