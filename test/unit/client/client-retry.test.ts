import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY,
  isRetryableNetworkFailure,
  isRetryableStatus,
  parseRetryAfter,
  retryDelay,
} from '../../../client/retry.js';

describe('retry policy', () => {
  it('retries only 429 and 503, and network failures only for idempotent methods', () => {
    for (let status = 400; status < 600; status++) {
      expect(isRetryableStatus(status)).toBe(status === 429 || status === 503);
    }
    expect(['GET', 'put', 'DELETE'].every(isRetryableNetworkFailure)).toBe(true);
    expect(['POST', 'PATCH'].some(isRetryableNetworkFailure)).toBe(false);
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-11-22T06:00:00Z');
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 7 ', now)).toBe(7000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 06:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 05:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-3', now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('keeps every computed wait inside its doubling ceiling, and stops after the retries', () => {
    fc.assert(
      fc.property(fc.nat(20), fc.double({ min: 0, max: 0.999_999, noNaN: true }), (attempt, r) => {
        const wait = retryDelay(DEFAULT_RETRY, attempt, undefined, () => r);
        if (attempt >= DEFAULT_RETRY.retries) return wait === undefined;
        const ceiling = Math.min(DEFAULT_RETRY.maxDelayMs, DEFAULT_RETRY.baseDelayMs * 2 ** attempt);
        return wait !== undefined && wait >= 0 && wait < ceiling;
      }),
    );
  });

  it('lets a server Retry-After win up to the limit', () => {
    expect(retryDelay(DEFAULT_RETRY, 0, 1500)).toBe(1500);
    expect(retryDelay(DEFAULT_RETRY, 0, DEFAULT_RETRY.maxRetryAfterMs)).toBe(DEFAULT_RETRY.maxRetryAfterMs);
    expect(retryDelay(DEFAULT_RETRY, 0, DEFAULT_RETRY.maxRetryAfterMs + 1)).toBeUndefined();
    expect(retryDelay({ ...DEFAULT_RETRY, retries: 0 }, 0, 10)).toBeUndefined();
  });
});
