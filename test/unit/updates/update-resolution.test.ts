import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BinaryRange } from '../../../src/releases/binary-range.js';
import { reachable } from '../../../src/routing/routing.source.js';
import type { RoutedRelease } from '../../../src/routing/routing.types.js';
import { bucketOf } from '../../../src/updates/bucket.js';
import { resolveRelease } from '../../../src/updates/resolve.js';

let seq = 0;
function release(
  rolloutPct: number,
  fingerprint: string | null = null,
  range?: string,
  paused = false,
): RoutedRelease {
  seq += 1;
  const id = `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`;
  return {
    id,
    version: `v${seq}`,
    rolloutPct,
    fingerprint,
    binaryRange: range === undefined ? null : new BinaryRange(range),
    mandatory: false,
    paused,
    notes: '',
    sha256: 'a',
    size: 1,
    answers: new Map(),
    url: 'u',
  };
}

describe('resolveRelease', () => {
  it('returns null for an empty channel', () => {
    expect(resolveRelease([], 'd', undefined)).toBeNull();
  });

  it('picks the newest release whose bucket admits the device, falling through otherwise', () => {
    const base = release(100);
    const staged = release(40);
    const list = [staged, base];
    for (let i = 0; i < 300; i++) {
      const device = `dev-${i}`;
      const expected = bucketOf(staged.id, device) < 40 ? staged : base;
      expect(resolveRelease(list, device, undefined)).toBe(expected);
    }
  });

  it('matches fingerprints exactly; a device without one only gets unfingerprinted releases', () => {
    const any = release(100);
    const a = release(100, 'A');
    expect(resolveRelease([a, any], 'd', 'A')).toBe(a);
    expect(resolveRelease([a, any], 'd', 'a')).toBe(any);
    expect(resolveRelease([a, any], 'd', undefined)).toBe(any);
    expect(resolveRelease([a], 'd', undefined)).toBeNull();
  });

  it('never offers a release at 0 %', () => {
    const zero = release(0);
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }),
        (d) => resolveRelease([zero], d, undefined) === null,
      ),
    );
  });

  it('raising the newest release percentage only moves devices onto it', () => {
    const base = release(100);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 100 }),
        fc.string({ minLength: 1 }),
        (p, q, d) => {
          const [low, high] = p <= q ? [p, q] : [q, p];
          const staged = release(low);
          const raised = { ...staged, rolloutPct: high };
          const before = resolveRelease([staged, base], d, undefined);
          const after = resolveRelease([raised, base], d, undefined);
          return before?.id !== staged.id || after?.id === staged.id;
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('resolveRelease with paused releases', () => {
  it('offers a paused release to no device that does not run it: they get what lies below', () => {
    const base = release(100);
    const paused = release(100, null, undefined, true);
    for (const d of ['a', 'b', 'c']) {
      expect(resolveRelease([paused, base], d, undefined)).toBe(base);
      expect(resolveRelease([paused, base], d, undefined, undefined, base.id)).toBe(base);
      expect(resolveRelease([paused], d, undefined)).toBeNull();
    }
  });

  it('keeps a paused release on a device that runs it, within its rollout and shell', () => {
    const base = release(100);
    const paused = release(40, 'F', undefined, true);
    for (let i = 0; i < 200; i++) {
      const d = `keep-${i}`;
      const inside = bucketOf(paused.id, d) < 40;
      expect(resolveRelease([paused, base], d, 'F', undefined, paused.id)).toBe(inside ? paused : base);
      // A device that runs it on another native shell cannot keep it.
      expect(resolveRelease([paused, base], d, 'G', undefined, paused.id)).toBe(base);
    }
  });

  it('lets a newer release overtake a paused one for the devices that run it', () => {
    const paused = release(100, null, undefined, true);
    const newer = release(100);
    expect(resolveRelease([newer, paused], 'd', undefined, undefined, paused.id)).toBe(newer);
  });
});

describe('resolveRelease with binary ranges', () => {
  it('serves a ranged release only to app versions inside the range, falling through otherwise', () => {
    const [ranged, base] = [release(100, null, '^2.0.0'), release(100)];
    expect(resolveRelease([ranged, base], 'd', undefined, '2.3.1')).toBe(ranged);
    expect(resolveRelease([ranged, base], 'd', undefined, '1.9.0')).toBe(base);
    expect(resolveRelease([ranged, base], 'd', undefined, '3.0.0')).toBe(base);
    expect(resolveRelease([ranged], 'd', undefined, '1.9.0')).toBeNull();
  });

  it('never serves a ranged release to a device that sends no app version, even the range *', () => {
    const [any, base] = [release(100, null, '*'), release(100)];
    expect(resolveRelease([any, base], 'd', undefined)).toBe(base);
    expect(resolveRelease([any, base], 'd', undefined, '0.0.1')).toBe(any);
  });

  it('needs the fingerprint, the range and the bucket together', () => {
    const both = release(100, 'F', '1.2.x');
    expect(resolveRelease([both], 'd', 'F', '1.2.9')).toBe(both);
    expect(resolveRelease([both], 'd', 'G', '1.2.9')).toBeNull();
    expect(resolveRelease([both], 'd', 'F', '1.3.0')).toBeNull();
    const staged = release(30, null, '>=1.0.0');
    const inside = Array.from({ length: 200 }, (_, i) => `d${i}`).filter((d) => bucketOf(staged.id, d) < 30);
    const outside = Array.from({ length: 200 }, (_, i) => `d${i}`).filter(
      (d) => bucketOf(staged.id, d) >= 30,
    );
    for (const d of inside) expect(resolveRelease([staged], d, undefined, '1.0.0')).toBe(staged);
    for (const d of outside) expect(resolveRelease([staged], d, undefined, '1.0.0')).toBeNull();
  });
});

describe('reachable', () => {
  it('cuts the list after the newest release that admits everyone', () => {
    const [a, b, c, d] = [release(10), release(100, 'F'), release(100), release(100)];
    expect(reachable([a, b, c, d])).toEqual([a, b, c]);
    expect(reachable([a, b])).toEqual([a, b]);
    expect(reachable([])).toEqual([]);
  });

  it('does not cut at a release with a binary range: other native versions fall through past it', () => {
    const [ranged, base, old] = [release(100, null, '^2.0.0'), release(100), release(100)];
    expect(reachable([ranged, base, old])).toEqual([ranged, base]);
  });

  it('does not cut at a paused release: devices not running it fall through past it', () => {
    const [paused, base, old] = [release(100, null, undefined, true), release(100), release(100)];
    expect(reachable([paused, base, old])).toEqual([paused, base]);
  });

  it('never changes the answer for any device', () => {
    const pool = [
      release(100, null, undefined, true),
      release(50, null, undefined, true),
      release(100),
      release(30),
      release(100, 'F'),
      release(60, 'F'),
      release(100),
      release(5),
      release(100, null, '^2.0.0'),
      release(100, null, '*'),
      release(40, 'F', '1.x'),
    ];
    fc.assert(
      fc.property(
        fc.shuffledSubarray(pool),
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.constantFrom(undefined, 'F', 'G'),
        fc.constantFrom(undefined, '1.0.0', '2.1.0', '3.0.0'),
        fc.constantFrom(undefined, ...pool.map((r) => r.id)),
        (list, d, fp, v, current) =>
          resolveRelease(list, d, fp, v, current) === resolveRelease(reachable(list), d, fp, v, current),
      ),
      { numRuns: 1000 },
    );
  });
});
