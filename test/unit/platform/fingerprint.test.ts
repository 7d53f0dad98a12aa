import { describe, expect, it } from 'vitest';
import { Fingerprinter } from '../../../src/platform/fingerprint.js';

/** Both hashes of `key` (and `id`), as the tables store them. */
function print(f: Fingerprinter, key: string, id?: string): [number, number] {
  const first = f.of(key, id);
  return [first, f.second];
}

describe('fingerprints of device keys (the per-device tables of the device edge)', () => {
  it('gives one text the same two hashes every time, and the second is never 0 (a free slot)', () => {
    const f = new Fingerprinter();
    expect(print(f, 'app device-1')).toEqual(print(f, 'app device-1'));
    for (let i = 0; i < 10_000; i++) {
      f.of(`k${i}`, `d${i}`);
      expect(f.second).not.toBe(0);
    }
    expect(print(f, '')[1]).not.toBe(0);
  });

  it('tells a pair from its parts joined with a space, and from the pair split elsewhere', () => {
    const f = new Fingerprinter();
    expect(print(f, 'ws', 'device')).not.toEqual(print(f, 'ws device'));
    expect(print(f, 'ab', 'c')).not.toEqual(print(f, 'a', 'bc'));
  });

  it('does not collide among 200,000 device ids a client made up, NUL and lone surrogates included', () => {
    const f = new Fingerprinter();
    const seen = new Set<string>();
    const odd = ['\u0000', '\ud800', '\udfff', 'urn:uuid:', 'A'];
    for (let i = 0; i < 200_000; i++) {
      const [a, b] = print(f, 'workspace', `${odd[i % odd.length]}${i}`);
      seen.add(`${a}:${b}`);
    }
    expect(seen.size).toBe(200_000);
  });

  it('is seeded per process table: two tables place the same key apart', () => {
    // One key's first hash under 20 seeds: the chance that all agree by accident is nil.
    const firsts = new Set(Array.from({ length: 20 }, () => new Fingerprinter().of('app device-1')));
    expect(firsts.size).toBeGreaterThan(1);
  });
});
