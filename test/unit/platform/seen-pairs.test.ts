import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SeenPairs } from '../../../src/platform/seen-pairs.js';

const KEY = 'ota:{ws:a0a0a0a0-0000-4000-8000-000000000001}:devices:hll:20610';

describe('seen pairs (fingerprints of a key and an id)', () => {
  it('knows a device once noted, under its key only, until cleared', () => {
    const written = new SeenPairs(1000);
    const device = randomUUID();
    expect(written.has(KEY, device)).toBe(false);
    written.note(KEY, device);
    written.note(KEY, device);
    expect(written.has(KEY, device)).toBe(true);
    expect(written.has(`${KEY}x`, device)).toBe(false);
    // The pair is hashed with a separator: moving characters between key and device makes another pair.
    expect(written.has(`${KEY}${device.slice(0, 1)}`, device.slice(1))).toBe(false);
    written.clear();
    expect(written.has(KEY, device)).toBe(false);
  });

  it('keeps nearly all of the devices it was sized for, and never reports one it was not told of', () => {
    const written = new SeenPairs(50_000);
    const noted = Array.from({ length: 50_000 }, () => randomUUID());
    for (const device of noted) written.note(KEY, device);
    const kept = noted.filter((device) => written.has(KEY, device)).length;
    expect(kept).toBeGreaterThan(0.99 * noted.length);
    const strangers = Array.from({ length: 50_000 }, () => randomUUID());
    expect(strangers.filter((device) => written.has(KEY, device))).toEqual([]);
  });

  it('stays the same size however many devices pass through it', () => {
    const written = new SeenPairs(100);
    for (let i = 0; i < 20_000; i++) written.note(KEY, `device-${i}`);
    // The most recent devices of a full set are the ones kept: the last one noted is always there.
    expect(written.has(KEY, 'device-19999')).toBe(true);
    const kept = Array.from({ length: 20_000 }, (_, i) => `device-${i}`).filter((d) => written.has(KEY, d));
    expect(kept.length).toBeLessThanOrEqual(512);
  });

  it('answers firstTime true once per pair, then false', () => {
    const seen = new SeenPairs(100);
    expect(seen.firstTime('release-a', 'device-1')).toBe(true);
    expect(seen.firstTime('release-a', 'device-1')).toBe(false);
    expect(seen.firstTime('release-b', 'device-1')).toBe(true);
  });
});
