import { describe, expect, it } from 'vitest';
import { ackEntries, MERGE_FROM_DEVICES } from '../../../src/ingest/ingest-ack.js';
import type { CounterDelta } from '../../../src/ingest/ingest-batch.js';
import { eventStreamKey, INGEST_GROUP } from '../../../src/intake/event-stream.js';
import {
  type CounterKind,
  HOUR_COUNTER_TTL_SECONDS,
  hourCounterKey,
  MINUTE_COUNTER_TTL_SECONDS,
  minuteCounterKey,
  minuteOf,
} from '../../../src/spikes/failure-counters.js';
import { fileContext } from '../../helpers/context.js';

const ctx = fileContext();

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

function delta(
  minute: number,
  activations: string[],
  errors: string[],
  networks: string[] = [],
): CounterDelta {
  return { appId: APP, moduleId: MODULE, minute, receivedMinute: minute, activations, errors, networks };
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
      const failing = n % 2 === 0;
      // The failing devices' batches come from three client networks.
      const networks = failing ? [`198.51.${n % 3}.0/24`] : [];
      counters.set(id, [delta(minute, activations, failing ? [`dev-${n}-0`] : [], networks)]);
    });

    expect(await ackEntries(redis, ctx.deps.keys, stream, INGEST_GROUP, ids, counters)).toBe(25);

    const minuteKey = (kind: CounterKind) => minuteCounterKey(ctx.deps.keys, APP, MODULE, minute, kind);
    const hourKey = (kind: CounterKind) =>
      hourCounterKey(ctx.deps.keys, APP, MODULE, Math.floor(minute / 60), kind);
    const near = (value: number, expected: number) => Math.abs(value - expected) / expected < 0.02;
    expect(near(await redis.pfcount(minuteKey('activations')), 1200)).toBe(true);
    expect(near(await redis.pfcount(hourKey('activations')), 1200)).toBe(true);
    expect(await redis.pfcount(minuteKey('errors'))).toBe(15);
    expect(await redis.pfcount(minuteKey('networks'))).toBe(3);
    expect(await redis.pfcount(hourKey('networks'))).toBe(3);
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

  it('merges an hour counter from its minute counters when a flush brings it many devices: the same count as adding them', async () => {
    const redis = ctx.deps.redis;
    const keys = ctx.deps.keys;
    const stream = eventStreamKey(keys);
    // Received at :30 of an hour; the hour before it: minutes from :26 on feed minute and hour counters,
    // earlier ones (more than 65 minutes old) the hour counter only.
    const received = Math.floor(minuteOf(Date.now()) / 60) * 60 + 30 - 60 * 7;
    const hour = Math.floor(received / 60) - 1;
    const recent = [hour * 60 + 40, hour * 60 + 41, hour * 60 + 42];
    const old = hour * 60 + 10;
    const minuteKey = (m: number, kind: 'activations' | 'errors' = 'activations') =>
      minuteCounterKey(keys, APP, MODULE, m, kind);
    const hourKey = (kind: 'activations' | 'errors') => hourCounterKey(keys, APP, MODULE, hour, kind);
    // Devices of earlier flushes, in the minute and hour counters already.
    await redis.pfadd(minuteKey(recent[0]!), ...Array.from({ length: 500 }, (_, i) => `earlier-${i}`));
    await redis.pfadd(hourKey('activations'), ...Array.from({ length: 500 }, (_, i) => `earlier-${i}`));
    // One device only the minute counter holds: in the hour counter afterwards only if it was merged.
    await redis.pfadd(minuteKey(recent[1]!), 'minute-only');

    const ids = await pendingEntries(32, 'c');
    const counters = new Map<string, CounterDelta[]>();
    const all: string[] = Array.from({ length: 500 }, (_, i) => `earlier-${i}`);
    const errors: string[] = [];
    ids.forEach((id, n) => {
      const isOld = n >= 30;
      const activations = Array.from({ length: isOld ? 50 : 100 }, (_, d) => `dev-${n}-${d}`);
      const errs = activations.slice(0, 10);
      all.push(...activations);
      errors.push(...errs);
      const minute = isOld ? old : recent[n % 3]!;
      counters.set(id, [
        {
          appId: APP,
          moduleId: MODULE,
          minute,
          receivedMinute: received,
          activations,
          errors: errs,
          networks: [],
        },
      ]);
    });
    expect(3000).toBeGreaterThanOrEqual(MERGE_FROM_DEVICES);

    expect(await ackEntries(redis, keys, stream, INGEST_GROUP, ids, counters)).toBe(32);

    // The same registers as adding every device to the hour counter: compared with a counter built so.
    const reference = keys.ingest('test:reference-hour');
    await redis.pfadd(reference, ...all, 'minute-only');
    expect(await redis.pfcount(hourKey('activations'))).toBe(await redis.pfcount(reference));
    expect(await redis.pfadd(hourKey('activations'), 'minute-only', 'dev-31-49', 'earlier-0')).toBe(0);
    // Errors: 320 devices, below the merge threshold, added one by one (exact at this size).
    const referenceErrors = keys.ingest('test:reference-hour-errors');
    await redis.pfadd(referenceErrors, ...errors);
    expect(await redis.pfcount(hourKey('errors'))).toBe(await redis.pfcount(referenceErrors));
    // Old events feed no minute counter; the recent minutes hold theirs.
    expect(await redis.exists(minuteKey(old))).toBe(0);
    const near = (value: number, expected: number) => Math.abs(value - expected) / expected < 0.02;
    expect(near(await redis.pfcount(minuteKey(recent[2]!)), 1000)).toBe(true);
    expect(await redis.ttl(hourKey('activations'))).toBeGreaterThan(MINUTE_COUNTER_TTL_SECONDS);
    expect(await redis.ttl(hourKey('activations'))).toBeLessThanOrEqual(HOUR_COUNTER_TTL_SECONDS);
    await redis.del(reference, referenceErrors);
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
