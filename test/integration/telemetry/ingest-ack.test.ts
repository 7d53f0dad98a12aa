import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStreamKey, INGEST_GROUP } from '../../../src/telemetry/event-stream.js';
import {
  HOUR_COUNTER_TTL_SECONDS,
  hourCounterKey,
  MINUTE_COUNTER_TTL_SECONDS,
  minuteCounterKey,
  minuteOf,
} from '../../../src/telemetry/failure-counters.js';
import { ackEntries } from '../../../src/telemetry/ingest-ack.js';
import type { CounterDelta } from '../../../src/telemetry/ingest-batch.js';
import { createTestContext, type TestContext } from '../../helpers/context.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

const APP = '00000000-0000-4000-8000-00000000a001';
const MODULE = '00000000-0000-4000-8000-00000000b001';

/** `count` entries in the stream, read by `consumer` so that they are pending in the ingest group. */
async function pendingEntries(count: number, consumer: string): Promise<string[]> {
  const redis = ctx.deps.redis;
  const stream = eventStreamKey(ctx.deps.keys);
  await redis.xgroup('CREATE', stream, INGEST_GROUP, '$', 'MKSTREAM').catch(() => {});
  for (let i = 0; i < count; i++) await redis.xadd(stream, '*', 'n', String(i));
  const read = (await redis.xreadgroup(
    'GROUP',
    INGEST_GROUP,
    consumer,
    'COUNT',
    count,
    'STREAMS',
    stream,
    '>',
  )) as [string, [string, string[]][]][];
  return read[0]![1].map(([id]) => id);
}

function delta(minute: number, activations: string[], errors: string[]): CounterDelta {
  return { appId: APP, moduleId: MODULE, minute, receivedMinute: minute, activations, errors };
}

describe('acknowledging stored entries', () => {
  it('acknowledges and deletes the entries, adding their devices gathered per counter across entries', async () => {
    const redis = ctx.deps.redis;
    const stream = eventStreamKey(ctx.deps.keys);
    const minute = minuteOf(Date.now());
    const ids = await pendingEntries(30, 'a');
    // The first five were acknowledged elsewhere (another worker claimed and stored them): they are not
    // counted as this call's, and adding their devices again changes no count.
    await redis.xack(stream, INGEST_GROUP, ...ids.slice(0, 5));
    const counters = new Map<string, CounterDelta[]>();
    ids.forEach((id, n) => {
      // 40 devices an entry: 1,200 in all, more than one PFADD takes.
      const activations = Array.from({ length: 40 }, (_, d) => `dev-${n}-${d}`);
      counters.set(id, [delta(minute, activations, n % 2 === 0 ? [`dev-${n}-0`] : [])]);
    });

    expect(await ackEntries(redis, ctx.deps.keys, stream, INGEST_GROUP, ids, counters)).toBe(25);

    const minuteKey = (kind: 'activations' | 'errors') =>
      minuteCounterKey(ctx.deps.keys, APP, MODULE, minute, kind);
    const hourKey = (kind: 'activations' | 'errors') =>
      hourCounterKey(ctx.deps.keys, APP, MODULE, Math.floor(minute / 60), kind);
    const near = (value: number, expected: number) => Math.abs(value - expected) / expected < 0.02;
    expect(near(await redis.pfcount(minuteKey('activations')), 1200)).toBe(true);
    expect(near(await redis.pfcount(hourKey('activations')), 1200)).toBe(true);
    expect(await redis.pfcount(minuteKey('errors'))).toBe(15);
    expect(await redis.pfadd(minuteKey('activations'), 'dev-0-0', 'dev-29-39')).toBe(0);
    const ttl = await redis.ttl(minuteKey('errors'));
    expect(ttl).toBeGreaterThan(MINUTE_COUNTER_TTL_SECONDS - 60);
    expect(ttl).toBeLessThanOrEqual(MINUTE_COUNTER_TTL_SECONDS);
    expect(await redis.ttl(hourKey('errors'))).toBeGreaterThan(MINUTE_COUNTER_TTL_SECONDS);
    expect(await redis.ttl(hourKey('errors'))).toBeLessThanOrEqual(HOUR_COUNTER_TTL_SECONDS);
    // All thirty are gone from the stream, the five acknowledged elsewhere too (they were stored).
    expect(await redis.xlen(stream)).toBe(0);
    expect((await redis.xpending(stream, INGEST_GROUP))[0]).toBe(0);
  });

  it('an entry acknowledged twice counts for one: the second call adds the same device again', async () => {
    const redis = ctx.deps.redis;
    const stream = eventStreamKey(ctx.deps.keys);
    const minute = minuteOf(Date.now()) - 3;
    const [id] = await pendingEntries(1, 'b');
    const counters = new Map([[id!, [delta(minute, [], ['only-once'])]]]);
    const key = minuteCounterKey(ctx.deps.keys, APP, MODULE, minute, 'errors');
    expect(await ackEntries(redis, ctx.deps.keys, stream, INGEST_GROUP, [id!], counters)).toBe(1);
    expect(await ackEntries(redis, ctx.deps.keys, stream, INGEST_GROUP, [id!], counters)).toBe(0);
    expect(await redis.pfcount(key)).toBe(1);
  });
});
