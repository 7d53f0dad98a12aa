import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reachable } from '../../src/routing/routing.store.js';
import type { RoutedRelease } from '../../src/routing/routing.types.js';
import { bucketOf } from '../../src/updates/bucket.js';
import { resolveRelease } from '../../src/updates/resolve.js';

let seq = 0;
function release(rolloutPct: number, fingerprint: string | null = null): RoutedRelease {
  seq += 1;
  const id = `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`;
  return {
    id,
    version: `v${seq}`,
    rolloutPct,
    fingerprint,
    mandatory: false,
    notes: '',
    sha256: 'a',
    size: 1,
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

describe('reachable', () => {
  it('cuts the list after the newest release that admits everyone', () => {
    const [a, b, c, d] = [release(10), release(100, 'F'), release(100), release(100)];
    expect(reachable([a, b, c, d])).toEqual([a, b, c]);
    expect(reachable([a, b])).toEqual([a, b]);
    expect(reachable([])).toEqual([]);
  });

  it('never changes the answer for any device', () => {
    const pool = [release(100), release(30), release(100, 'F'), release(60, 'F'), release(100), release(5)];
    fc.assert(
      fc.property(
        fc.shuffledSubarray(pool),
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.constantFrom(undefined, 'F', 'G'),
        (list, d, fp) => resolveRelease(list, d, fp) === resolveRelease(reachable(list), d, fp),
      ),
      { numRuns: 1000 },
    );
  });
});
