import { describe, expect, it } from 'vitest';
import { FailureReporters } from '../../../src/edge/failure-reporters.js';

const HOUR = 3_600_000;

describe('failure reporters (which reports may move failure counters)', () => {
  it('lets one address add a handful of devices per release and hour, and keeps counting those', () => {
    let now = 10 * HOUR;
    const reporters = new FailureReporters({ devicesPerAddress: 3, now: () => now });
    const admitted = Array.from({ length: 10 }, (_, i) => reporters.admit('r1', '203.0.113.5', `d${i}`));
    expect(admitted).toEqual([true, true, true, false, false, false, false, false, false, false]);
    expect(reporters.admit('r1', '203.0.113.5', 'd1')).toBe(true);
    // Another release, another address, and an IPv6 host rotating through its /64: each has its own count.
    expect(reporters.admit('r2', '203.0.113.5', 'd9')).toBe(true);
    expect(reporters.admit('r1', '203.0.113.6', 'd9')).toBe(true);
    const v6 = ['::1', '::2', '::3', '::4'].map((host, i) =>
      reporters.admit('r1', `2001:db8:1:2${host}`, `v${i}`),
    );
    expect(v6).toEqual([true, true, true, false]);
    // The next clock hour starts afresh.
    now += HOUR;
    expect(reporters.admit('r1', '203.0.113.5', 'd7')).toBe(true);
  });

  it('stays bounded whatever addresses and releases are named', () => {
    const now = 5 * HOUR;
    const reporters = new FailureReporters({ devicesPerAddress: 2, maxPairs: 100, now: () => now });
    for (let i = 0; i < 10_000; i++) reporters.admit(`r${i % 50}`, `10.0.${i >> 8}.${i & 0xff}`, `d${i}`);
    expect(reporters.size).toBeLessThanOrEqual(100);
  });
});
