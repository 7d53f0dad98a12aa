import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesEtag, parseRange } from '../../../src/updates/byte-range.js';

describe('Range header', () => {
  it.each([
    [undefined, 100, null],
    ['bytes=0-9', 100, { start: 0, end: 9 }],
    ['bytes=90-', 100, { start: 90, end: 99 }],
    ['bytes=-10', 100, { start: 90, end: 99 }],
    ['bytes=-500', 100, { start: 0, end: 99 }],
    ['bytes=50-1000', 100, { start: 50, end: 99 }],
    ['bytes=99-99', 100, { start: 99, end: 99 }],
    ['bytes=100-', 100, 'unsatisfiable'],
    ['bytes=-0', 100, 'unsatisfiable'],
    ['bytes=0-', 0, 'unsatisfiable'],
    ['bytes=10-5', 100, null],
    ['bytes=-', 100, null],
    ['bytes=0-1,4-5', 100, null],
    ['pages=0-1', 100, null],
    ['bytes=a-b', 100, null],
  ] as const)('%s of %i bytes', (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });

  it('always yields a range inside the body, or no range, or unsatisfiable', () => {
    fc.assert(
      fc.property(fc.string(), fc.nat(10_000), (header, size) => {
        const r = parseRange(`bytes=${header}`, size);
        return r === null || r === 'unsatisfiable' || (r.start >= 0 && r.start <= r.end && r.end < size);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('If-None-Match', () => {
  const etag = '"abc"';
  it.each([
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['*', true],
    ['"abcd"', false],
    ['abc', false],
    [undefined, false],
    ['', false],
  ])('%s -> %s', (header, expected) => {
    expect(matchesEtag(header, etag)).toBe(expected);
  });
});
