import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeviceLimiter } from '../../../src/edge/device-limiter.js';

describe('DeviceLimiter', () => {
  it('allows a full minute at once, then one request per refilled token', () => {
    let now = 0;
    const limiter = new DeviceLimiter({ perMinute: 3, now: () => now });
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 0]);
    // One token comes back every 20 s.
    expect(limiter.take('a')).toBe(20);
    expect(limiter.take('b')).toBe(0);
    now = 15_000;
    expect(limiter.take('a')).toBe(5);
    now = 20_000;
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBe(20);
    // A key idle for a minute has its whole allowance again, never more.
    now = 200_000;
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([
      0, 0, 0, 20,
    ]);
  });

  it('allows each of N copies its share, rounded up', () => {
    expect(new DeviceLimiter({ perMinute: 600, copies: 3 }).share).toBe(200);
    expect(new DeviceLimiter({ perMinute: 10, copies: 4 }).share).toBe(3);
    expect(new DeviceLimiter({ perMinute: 1, copies: 8 }).share).toBe(1);
  });

  it('never lets one key through more than its allowance over any stretch of time', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.array(fc.integer({ min: 0, max: 5_000 }), { minLength: 1, maxLength: 300 }),
        (perMinute, gaps) => {
          let now = 0;
          const limiter = new DeviceLimiter({ perMinute, now: () => now });
          let passed = 0;
          for (const gap of gaps) {
            now += gap;
            if (limiter.take('k') === 0) passed += 1;
          }
          // A full bucket, plus what refills over the elapsed time.
          return passed <= perMinute + Math.floor((now * perMinute) / 60_000);
        },
      ),
    );
  });

  it('stays within its bound of keys, forgetting full buckets before busy ones', () => {
    let now = 0;
    const limiter = new DeviceLimiter({ perMinute: 2, maxKeys: 10, now: () => now });
    limiter.take('busy');
    limiter.take('busy');
    for (let i = 0; i < 100; i++) limiter.take(`k${i}`);
    expect(limiter.size).toBeLessThanOrEqual(10);
    now = 61_000;
    for (let i = 100; i < 109; i++) limiter.take(`k${i}`);
    limiter.take('busy');
    limiter.take('busy');
    for (let i = 0; i < 8; i++) limiter.take(`n${i}`);
    expect(limiter.size).toBeLessThanOrEqual(10);
    // The busy key was kept: its bucket is still empty.
    expect(limiter.take('busy')).toBeGreaterThan(0);
  });
});

describe('DeviceLimiter table', () => {
  /** The same buckets kept in a Map of keys: what the table must agree with while under maxKeys. */
  function reference(perMinute: number) {
    const interval = 60_000 / perMinute;
    const fullAt = new Map<string, number>();
    return (key: string, now: number): number => {
      const before = fullAt.get(key) ?? now;
      const next = Math.max(before, now) + interval;
      if (next - now > perMinute * interval)
        return Math.max(1, Math.ceil((next - now - perMinute * interval) / 1000));
      fullAt.set(key, next);
      return 0;
    };
  }

  it('gives the verdicts of a bucket per key, through growth and rebuilds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 3_000 }), fc.integer({ min: 0, max: 2_999 })), {
          minLength: 1,
          maxLength: 4_000,
        }),
        (perMinute, steps) => {
          let now = 0;
          const limiter = new DeviceLimiter({ perMinute, now: () => now });
          const expected = reference(perMinute);
          for (const [gap, device] of steps) {
            now += gap;
            const key = `device:app:${device}`;
            if (limiter.take(key) !== expected(key, now)) return false;
          }
          return true;
        },
      ),
      { numRuns: 60 },
    );
  });

  it('keeps the buckets of many devices busy at once apart', () => {
    const limiter = new DeviceLimiter({ perMinute: 1, now: () => 1_000 });
    for (let i = 0; i < 50_000; i++) expect(limiter.take(`device-${i}`)).toBe(0);
    // Each of them has used its one request; none was mixed up with another.
    for (let i = 0; i < 50_000; i += 7) expect(limiter.take(`device-${i}`)).toBe(60);
    expect(limiter.take('device-new')).toBe(0);
  });
});

describe('DeviceLimiter memory', () => {
  it('forgets devices whose bucket has refilled, so it holds only the devices busy right now', () => {
    let now = 0;
    const limiter = new DeviceLimiter({ perMinute: 600, now: () => now });
    // A fleet of 100,000 devices checking once each, a thousand per second: each bucket is full again
    // 100 ms after its request.
    for (let i = 0; i < 100_000; i++) {
      now = i;
      expect(limiter.take(`device-${i}`)).toBe(0);
    }
    expect(limiter.size).toBeLessThan(5_000);
  });
});
