import { beforeAll, describe, expect, it } from 'vitest';
import { readDeadLetterStats } from '../../../src/ingest/dead-letters.js';
import { readIngestLag } from '../../../src/ingest/ingest-lag.js';
import { IngestStreams } from '../../../src/ingest/ingest-streams.js';
import { encodeEvents } from '../../../src/intake/event-rows.js';
import { deadLetterKey, eventStreamKey, parseEntry } from '../../../src/intake/event-stream.js';
import { RedisEventsStore } from '../../../src/intake/events.redis-store.js';
import { createBlockingRedis, ingestStreamTag, RedisKeys } from '../../../src/platform/redis.js';
import { minuteCounterKey, minuteOf } from '../../../src/spikes/failure-counters.js';
import { fileContext, type SignedIn, signUp } from '../../helpers/context.js';
import {
  createApp,
  createRelease,
  makeEvents,
  postEvents,
  RecordingSpikes,
  storedEvents,
  waitFor,
} from './fixtures.js';

let owner: SignedIn;
const ctx = fileContext({ env: { INGEST_STREAMS: '3' } });
beforeAll(async () => {
  owner = await signUp(ctx.app);
});

interface PostedApp {
  appId: string;
  moduleId: string;
  stream: number;
}

/** Apps until each of the three streams has at least one (app ids are random; 30 tries fail 1 in ~10^5). */
async function appsOnEveryStream(): Promise<PostedApp[]> {
  const apps: PostedApp[] = [];
  for (let i = 0; i < 30 && new Set(apps.map((a) => a.stream)).size < 3; i++) {
    const appId = await createApp(ctx.deps, owner.workspaceId);
    const moduleId = await createRelease(ctx.deps, { workspaceId: owner.workspaceId, appId });
    apps.push({ appId, moduleId, stream: ctx.deps.keys.streamOfApp(appId) });
  }
  expect(new Set(apps.map((a) => a.stream)).size).toBe(3);
  return apps;
}

/**
 * Two batches per app, 20 activations of 4 devices and 5 errors of 1 device each. Event ids are the app's
 * own; device ids are the same fixed strings for every app: a HyperLogLog counts 8 random ids as 7 about
 * once in 600 (two in one register), fixed ones are counted the same on every run.
 */
async function postTo(apps: PostedApp[], tag: string, at: number): Promise<void> {
  for (const { appId, moduleId } of apps) {
    for (let b = 0; b < 2; b++) {
      const fixedDevice = (e: { device_id: string }) => e.device_id.slice(`${tag}-${appId}-`.length);
      const events = [
        ...makeEvents(`${tag}-${appId}-a${b}`, moduleId, 'activation', 20, 4),
        ...makeEvents(`${tag}-${appId}-e${b}`, moduleId, 'error', 5, 1),
      ].map((e) => ({ ...e, device_id: fixedDevice(e), ts: new Date(at).toISOString() }));
      const res = await postEvents(ctx.app, appId, events, `198.18.${b}.9`);
      expect(res.statusCode).toBe(202);
    }
  }
}

async function streamLengths(keys: RedisKeys, n: number): Promise<number[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => ctx.deps.redis.xlen(eventStreamKey(keys, i))));
}

function readers(keys: RedisKeys): IngestStreams {
  return new IngestStreams(
    {
      redis: ctx.deps.redis,
      keys,
      rows: ctx.deps.stores.eventRows,
      spikes: new RecordingSpikes(),
      log: ctx.deps.log,
      connect: () => createBlockingRedis(ctx.config.redis),
    },
    { batchSize: 5000, flushMs: 100, claimIdleMs: 30_000, rescanMs: 200 },
  );
}

describe('ingest over several streams (INGEST_STREAMS=3)', () => {
  it('puts each app in one stream of its own hash tag, and the workers read every stream, counters beside it', async () => {
    const apps = await appsOnEveryStream();
    const at = Date.now() - 30_000;
    await postTo(apps, 'spread', at);

    // Each stream holds exactly the batches of its apps, in its own hash tag.
    for (let i = 0; i < 3; i++) {
      const key = eventStreamKey(ctx.deps.keys, i);
      expect(key).toContain(`{${ingestStreamTag(i)}}`);
      const entries = (await ctx.deps.redis.xrange(key, '-', '+')) as Array<[string, string[]]>;
      const owners = new Set(entries.map(([id, fields]) => parseEntry(id, fields).appId));
      expect([...owners].sort()).toEqual(
        apps
          .filter((a) => a.stream === i)
          .map((a) => a.appId)
          .sort(),
      );
    }
    // The backlog is read across every stream.
    expect((await readIngestLag(ctx.deps.redis, ctx.deps.keys)).unread).toBe(apps.length * 2);

    // Two workers, as two processes would run them: each reads all three streams.
    const one = ctx.deps.workers.ingest();
    const two = readers(ctx.deps.keys);
    await one.consumer.start();
    await two.start();
    try {
      expect([one.consumer.streams, two.streams]).toEqual([3, 3]);
      await waitFor('every stream drained', async () =>
        (await streamLengths(ctx.deps.keys, 3)).every((n) => n === 0),
      );
      for (const { appId } of apps) {
        await waitFor(`events of ${appId} stored`, async () => (await storedEvents(ctx.deps, appId)) === 50);
      }
    } finally {
      await two.stop();
      await one.consumer.stop();
      await one.close();
    }
    // The failure counters of each app are beside its stream: one PFCOUNT per window on one shard.
    for (const { appId, moduleId, stream } of apps) {
      const key = minuteCounterKey(ctx.deps.keys, appId, moduleId, minuteOf(at), 'errors');
      expect(key).toContain(`{${ingestStreamTag(stream)}}`);
      expect(await ctx.deps.redis.pfcount(key)).toBe(2);
      expect(
        await ctx.deps.redis.pfcount(
          minuteCounterKey(ctx.deps.keys, appId, moduleId, minuteOf(at), 'activations'),
        ),
      ).toBe(8);
    }
    expect(await readIngestLag(ctx.deps.redis, ctx.deps.keys)).toEqual({
      unread: 0,
      pending: 0,
      oldestUnreadMs: 0,
    });
  });

  it('after INGEST_STREAMS is lowered to 1, a worker still drains the streams beyond it, and counts beside the new stream', async () => {
    const apps = await appsOnEveryStream();
    const at = Date.now() - 20_000;
    // Accepted while three streams were in use, nobody reading.
    await postTo(apps, 'lowered', at);
    const lengths = await streamLengths(ctx.deps.keys, 3);
    expect(lengths.every((n) => n > 0)).toBe(true);

    // A worker started with INGEST_STREAMS=1.
    const one = new RedisKeys(ctx.deps.keys.prefix, 1);
    const worker = readers(one);
    await worker.start();
    try {
      expect(worker.streams).toBe(3);
      await waitFor('every stream drained', async () => (await streamLengths(one, 3)).every((n) => n === 0));
      for (const { appId } of apps) {
        await waitFor(`events of ${appId} stored`, async () => (await storedEvents(ctx.deps, appId)) === 50);
      }
    } finally {
      await worker.stop();
    }
    // With one stream every app counts beside stream 0, also for entries read from streams 1 and 2.
    for (const { appId, moduleId } of apps) {
      const key = minuteCounterKey(one, appId, moduleId, minuteOf(at), 'errors');
      expect(key).toContain('{ingest}');
      expect(await ctx.deps.redis.pfcount(key)).toBe(2);
    }
  });

  it('sets an entry it cannot store aside beside its own stream, and counts dead letters over every stream', async () => {
    const before = await readDeadLetterStats(ctx.deps.redis, ctx.deps.keys, []);
    await ctx.deps.redis.xadd(eventStreamKey(ctx.deps.keys, 2), '*', 'not', 'ours');
    const worker = readers(ctx.deps.keys);
    await worker.start();
    try {
      await waitFor(
        'the entry dead-lettered',
        async () =>
          (await readDeadLetterStats(ctx.deps.redis, ctx.deps.keys, [])).entries === before.entries + 1,
      );
    } finally {
      await worker.stop();
    }
    expect(await ctx.deps.redis.xlen(deadLetterKey(ctx.deps.keys, 2))).toBe(1);
    expect(deadLetterKey(ctx.deps.keys, 2)).toContain(`{${ingestStreamTag(2)}}`);
    expect((await readDeadLetterStats(ctx.deps.redis, ctx.deps.keys, [])).held).toBe(before.held + 1);
  });

  it('after INGEST_STREAMS is raised, a running worker starts reading the new streams', async () => {
    const one = new RedisKeys(`${ctx.deps.keys.prefix}:raised`, 1);
    const worker = readers(one);
    await worker.start();
    try {
      expect(worker.streams).toBe(1);
      // An API copy with INGEST_STREAMS=3 announces its count with its first batch.
      const apps = await appsOnEveryStream();
      const three = new RedisKeys(one.prefix, 3);
      const store = new RedisEventsStore(ctx.deps.redis, three);
      const receivedMs = Date.now();
      await store.append(
        apps.map(({ appId, moduleId }) => ({
          appId,
          receivedMs,
          encoded: encodeEvents(
            appId,
            receivedMs,
            makeEvents(`raised-${appId}`, moduleId, 'activation', 3),
            90,
          ),
        })),
      );
      await waitFor('the worker reads three streams', async () => worker.streams === 3);
      await waitFor('every stream drained', async () =>
        (await streamLengths(three, 3)).every((n) => n === 0),
      );
      for (const { appId } of apps) {
        await waitFor(`events of ${appId} stored`, async () => (await storedEvents(ctx.deps, appId)) === 3);
      }
    } finally {
      await worker.stop();
    }
  });
});
