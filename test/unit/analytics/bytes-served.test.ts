import { describe, expect, it } from 'vitest';
import { RedisBytesServed } from '../../../src/analytics/bytes-served.js';
import type { Redis } from '../../../src/platform/redis.js';
import { RedisKeys } from '../../../src/platform/redis.js';
import { retainedBytesEach, sliceOfPaddedText } from '../../helpers/retained-heap.js';

/** A Redis that keeps the HINCRBYs of each flush's pipelines, summed per key and field. */
function countingRedis() {
  const counts = new Map<string, number>();
  const redis = {
    pipeline() {
      const pipe = {
        hincrby(key: string, field: string, bytes: number) {
          counts.set(`${key} ${field}`, (counts.get(`${key} ${field}`) ?? 0) + bytes);
          return pipe;
        },
        exec: async () => [],
      };
      return pipe;
    },
  } as unknown as Redis;
  return { redis, counts };
}

const APP = '0b9a3c52-7f1e-4d6a-9c0b-5e2f8a1d3c47';
const R1 = '5d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6';
const R2 = '6e2f3a4b-5c6d-4e7f-9081-92a3b4c5d6e7';

describe('bytes served, counted once per device and release', () => {
  it('counts a device once per release however often it is answered, and an answer naming no device each time', async () => {
    const { redis, counts } = countingRedis();
    const served = new RedisBytesServed(redis, new RedisKeys('t'), { flushMs: 60_000 });
    served.record(APP, R1, 'full', 100, 'dev-a');
    served.record(APP, R1, 'full', 100, 'dev-a');
    served.record(APP, R1, 'full', 100, 'dev-b');
    served.record(APP, R2, 'patch', 7, 'dev-a');
    served.record(APP, R2, 'patch', 7, 'dev-a');
    served.record(APP, R1, 'full', 5);
    served.record(APP, R1, 'full', 5);
    await served.flush();
    const key = served.key(APP);
    expect(counts.get(`${key} ${R1}:full`)).toBe(210);
    expect(counts.get(`${key} ${R2}:patch`)).toBe(7);
  });

  it('keeps its memory of devices bounded: a device pushed out by many newer ones counts again', async () => {
    const { redis, counts } = countingRedis();
    const served = new RedisBytesServed(redis, new RedisKeys('t'), { flushMs: 60_000 });
    const total = () => counts.get(`${served.key(APP)} ${R1}:full`) ?? 0;
    for (let i = 0; i < 100_000; i++) served.record(APP, R1, 'full', 1, `dev-${i}`);
    await served.flush();
    expect(total()).toBe(100_000);
    // The same 100,000 again: nearly all are remembered (a full set of slots gave up a few).
    for (let i = 0; i < 100_000; i++) served.record(APP, R1, 'full', 1, `dev-${i}`);
    await served.flush();
    expect(total() - 100_000).toBeLessThan(1_000);
    // Eight times as many newer devices push the first ones out: most of them count again.
    const before = total();
    for (let i = 100_000; i < 900_000; i++) served.record(APP, R1, 'full', 1, `dev-${i}`);
    for (let i = 0; i < 1000; i++) served.record(APP, R1, 'full', 1, `dev-${i}`);
    await served.flush();
    expect(total() - before - 800_000).toBeGreaterThan(500);
  });

  it('keeps no request text alive with the devices it remembers (it keeps no id at all)', async () => {
    const { redis } = countingRedis();
    const served = new RedisBytesServed(redis, new RedisKeys('t'), { flushMs: 60_000 });
    const perDevice = await retainedBytesEach(2000, (i) =>
      served.record(
        APP,
        R1,
        'full',
        1,
        sliceOfPaddedText('client_unique_id=', `dev-${String(i).padStart(8, '0')}-padded`),
      ),
    );
    // Each kept slice would hold its 8 KB request; a copy of its own is a few hundred bytes.
    expect(perDevice).toBeLessThan(2000);
    await served.flush();
  });
});
