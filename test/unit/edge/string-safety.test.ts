import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  enforceStringPolicy,
  isSafeString,
  makeSafeString,
  mayHoldUnsafeString,
} from '../../../src/edge/string-safety.js';
import { AppError } from '../../../src/platform/errors.js';

const parse = (text: string) => JSON.parse(text) as unknown;

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('not refused');
}

describe('string safety', () => {
  it('tells safe strings: well-formed Unicode without NUL', () => {
    expect(isSafeString('plain 🚀 é')).toBe(true);
    expect(isSafeString('a\u0000b')).toBe(false);
    expect(isSafeString('\ud800')).toBe(false);
    expect(isSafeString('x\udc00')).toBe(false);
    expect(makeSafeString('a\u0000b\ud800c\udfff🚀')).toBe('a\ufffdb\ufffdc\ufffd🚀');
  });

  it('suspects exactly the JSON texts that can hold an unsafe string', () => {
    expect(mayHoldUnsafeString('{"a":"plain \\n \\u00e9"}')).toBe(false);
    for (const t of ['"\\u0000"', '"\\ud800"', '"\\uDBFF"', '"\\udc00"', '"\\uDFFF"'])
      expect(mayHoldUnsafeString(t)).toBe(true);
    // Every string that parses to an unsafe value is suspected (raw text cannot carry one otherwise).
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        const text = JSON.stringify({ value });
        if (!isSafeString(value)) expect(mayHoldUnsafeString(text)).toBe(true);
      }),
    );
  });

  it('refuses naming the field, or replaces in place, anywhere in the body', () => {
    const body = '{"events":[{"id":"a"},{"id":"b","message":"x\\ud800y"}]}';
    const refused = refusal(() => enforceStringPolicy(parse(body), 'refuse'));
    expect(refused).toMatchObject({
      status: 400,
      code: 'invalid_string',
      extra: { field: 'events.1.message' },
    });
    expect(enforceStringPolicy(parse(body), 'replace')).toEqual({
      events: [{ id: 'a' }, { id: 'b', message: 'x\ufffdy' }],
    });
    expect(enforceStringPolicy('\u0000', 'replace')).toBe('\ufffd');
    expect(refusal(() => enforceStringPolicy(parse('{"bad\\u0000key":1}'), 'replace')).extra).toEqual({
      field: 'bad\ufffdkey',
    });
  });

  it('walks a body nested thousands deep without recursion', () => {
    const depth = 20_000;
    const text = `${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}`;
    expect(refusal(() => enforceStringPolicy(parse(text), 'refuse')).code).toBe('invalid_string');
  });
});
