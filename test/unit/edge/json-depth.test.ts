import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  jsonTextNestsDeeperThan,
  MAX_JSON_DEPTH,
  mayNestDeeperThan,
  nestsDeeperThan,
} from '../../../src/edge/json-depth.js';

const objects = (depth: number) => JSON.parse(`${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`);
const arrays = (depth: number) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);

describe('JSON nesting bound', () => {
  it('counts objects and arrays, not scalars', () => {
    expect(nestsDeeperThan('text', 0)).toBe(false);
    expect(nestsDeeperThan(null, 0)).toBe(false);
    expect(nestsDeeperThan({}, 1)).toBe(false);
    expect(nestsDeeperThan({}, 0)).toBe(true);
    expect(nestsDeeperThan({ a: [1, 'x', { b: null }] }, 3)).toBe(false);
    expect(nestsDeeperThan({ a: [1, 'x', { b: {} }] }, 3)).toBe(true);
  });

  it('holds exactly at the bound and refuses one level more, walking without recursion', () => {
    expect(nestsDeeperThan(objects(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(objects(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(arrays(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    // Far past the stack's reach for recursive code.
    expect(nestsDeeperThan(arrays(200_000), MAX_JSON_DEPTH)).toBe(true);
  });

  it('finds a deep branch beside wide shallow ones', () => {
    const wide = Array.from({ length: 1000 }, (_, i) => ({ id: i, tags: ['a', 'b'] }));
    expect(nestsDeeperThan({ wide }, MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan({ wide, deep: objects(MAX_JSON_DEPTH) }, MAX_JSON_DEPTH)).toBe(true);
  });
});

describe('the cheap look at the text before a walk', () => {
  it('never misses a body that nests too deep, and spares the walk of ordinary bodies', () => {
    const deep = `${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`;
    expect(mayNestDeeperThan(deep, MAX_JSON_DEPTH)).toBe(true);
    const check = JSON.stringify({ app_id: 'x'.repeat(36), device_id: 'y'.repeat(100), channel: 'beta' });
    expect(mayNestDeeperThan(check, MAX_JSON_DEPTH)).toBe(false);
    // Braces inside strings count too: it may only err towards a walk.
    expect(mayNestDeeperThan(JSON.stringify({ m: '{'.repeat(200) }), MAX_JSON_DEPTH)).toBe(true);
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 80 }), (value) => {
        const text = JSON.stringify(value);
        if (nestsDeeperThan(value, MAX_JSON_DEPTH))
          expect(mayNestDeeperThan(text, MAX_JSON_DEPTH)).toBe(true);
      }),
    );
  });
});

describe('the nesting read from the text', () => {
  it('agrees with the walk of the parsed value, strings with brackets, quotes and backslashes included', () => {
    expect(jsonTextNestsDeeperThan(JSON.stringify({ m: '{'.repeat(200) }), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonTextNestsDeeperThan(JSON.stringify({ m: `\\"${']'.repeat(200)}\\` }), 3)).toBe(false);
    const deep = `${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`;
    expect(jsonTextNestsDeeperThan(deep, MAX_JSON_DEPTH)).toBe(true);
    expect(jsonTextNestsDeeperThan(`{"a" : "]]]]\\\\", "b":${deep}}`, MAX_JSON_DEPTH)).toBe(true);
    const wide = Array.from({ length: 1000 }, (_, i) => ({ id: `"${i}\\`, tags: ['[', '}'] }));
    expect(jsonTextNestsDeeperThan(JSON.stringify({ wide }), MAX_JSON_DEPTH)).toBe(false);
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 80 }), fc.integer({ min: 0, max: 40 }), (value, max) => {
        const text = JSON.stringify(value, null, max % 3);
        expect(jsonTextNestsDeeperThan(text, max)).toBe(nestsDeeperThan(value, max));
      }),
    );
  });
});
