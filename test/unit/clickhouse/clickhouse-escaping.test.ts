import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chDateTime, chIdentifier, chInt, chNumber, chString } from '../../../src/platform/clickhouse.js';

/** Reads back a literal the way ClickHouse's lexer does, to prove the escaping round-trips. */
function unquote(literal: string): string {
  if (!literal.startsWith("'") || !literal.endsWith("'") || literal.length < 2) throw new Error('not quoted');
  const body = literal.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch === "'") throw new Error('unescaped quote inside literal');
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = body[++i];
    const map: Record<string, string> = { '\\': '\\', "'": "'", n: '\n', r: '\r', t: '\t', '0': '\0' };
    if (next === undefined || !(next in map)) throw new Error(`bad escape \\${next}`);
    out += map[next];
  }
  return out;
}

describe('ClickHouse literal escaping', () => {
  it('round-trips any string and never leaves a bare quote', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => unquote(chString(s)) === s),
      { numRuns: 1000 },
    );
  });

  it('escapes the classic injection attempts', () => {
    expect(chString("x' OR 1=1 --")).toBe("'x\\' OR 1=1 --'");
    expect(chString('a\\')).toBe("'a\\\\'");
    expect(unquote(chString("\\'; DROP TABLE t; --"))).toBe("\\'; DROP TABLE t; --");
  });

  it('accepts only finite numbers, safe integers, plain identifiers and valid dates', () => {
    expect(chNumber(0.25)).toBe('0.25');
    expect(() => chNumber(Number.NaN)).toThrow();
    expect(() => chInt(1.5)).toThrow();
    expect(chIdentifier('device_events')).toBe('device_events');
    expect(() => chIdentifier('x; DROP')).toThrow();
    expect(chDateTime(new Date(1_700_000_000_000))).toBe('toDateTime(1700000000)');
    expect(() => chDateTime(new Date(Number.NaN))).toThrow();
  });
});
