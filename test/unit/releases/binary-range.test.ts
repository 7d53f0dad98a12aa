import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/platform/errors.js';
import {
  BinaryRange,
  binaryRangeOf,
  normalizeAppVersion,
  parseTargetBinaryRange,
  requireAppVersion,
} from '../../../src/releases/binary-range.js';

describe('target_binary_range', () => {
  it('keeps a range semver reads, trimmed, as given', () => {
    for (const range of ['1.2.x', '^1.2.0', '>=1.0.0 <2.0.0', '~2.1', '*', '1.2.3 - 2.0.0', '1.x || >=3.0.0'])
      expect(parseTargetBinaryRange(range)).toBe(range);
    expect(parseTargetBinaryRange('  ^1.2.0 ')).toBe('^1.2.0');
  });

  it('refuses what is not a range with 400 invalid_target_binary_range', () => {
    for (const text of ['', '   ', 'latest', '1.2.3.4', 'abc', '>=1.0.0 garbage', '\u0000']) {
      let thrown: unknown;
      try {
        parseTargetBinaryRange(text);
      } catch (err) {
        thrown = err;
      }
      expect(thrown, text).toBeInstanceOf(AppError);
      expect((thrown as AppError).status).toBe(400);
      expect((thrown as AppError).code).toBe('invalid_target_binary_range');
    }
  });
});

describe('app_version', () => {
  it('reads store versions without a patch, and plain numbers, as CodePush did', () => {
    expect(normalizeAppVersion('1.2.3')).toBe('1.2.3');
    expect(normalizeAppVersion('2.0')).toBe('2.0.0');
    expect(normalizeAppVersion('2.0-beta.1')).toBe('2.0.0-beta.1');
    expect(normalizeAppVersion('2.0+45')).toBe('2.0.0');
    expect(normalizeAppVersion('3')).toBe('3.0.0');
    expect(normalizeAppVersion('1.2.3-rc.1')).toBe('1.2.3-rc.1');
  });

  it('is null (400 through requireAppVersion) for anything else', () => {
    for (const text of ['', 'abc', '1.2.3.4', '1.0.0 (45)', 'x'.repeat(65), '1..2', '^1.2.0', '01.2.3']) {
      expect(normalizeAppVersion(text), text).toBeNull();
      expect(() => requireAppVersion(text)).toThrowError(AppError);
    }
  });

  it('never throws on any string', () => {
    fc.assert(fc.property(fc.string({ maxLength: 80 }), (s) => normalizeAppVersion(s) !== undefined));
  });
});

describe('BinaryRange', () => {
  it('admits what semver.satisfies admits, prereleases only when the range names them', () => {
    const range = new BinaryRange('^1.2.0');
    expect(range.admits('1.2.0')).toBe(true);
    expect(range.admits('1.9.9')).toBe(true);
    expect(range.admits('2.0.0')).toBe(false);
    expect(range.admits('1.3.0-beta.1')).toBe(false);
    expect(new BinaryRange('>=1.3.0-beta.0 <2.0.0').admits('1.3.0-beta.1')).toBe(true);
    expect(range.isBelow('2.0.0')).toBe(true);
    expect(range.isBelow('1.0.0')).toBe(false);
  });

  it('answers the same from its memo, however many versions devices make up', () => {
    const range = new BinaryRange('1.x');
    for (let i = 0; i < 2000; i++) expect(range.admits(`${i % 3}.${i}.0`)).toBe(i % 3 === 1);
    for (let i = 0; i < 10; i++) expect(range.admits('1.5.0')).toBe(true);
  });

  it('admits no device when a stored range cannot be read', () => {
    expect(binaryRangeOf(null)).toBeNull();
    expect(binaryRangeOf('not a range')!.admits('1.0.0')).toBe(false);
  });
});
