import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decideRetry,
  describeSchedule,
  nominalDelayMs,
  parseRetryAfter,
  type RetryPolicy,
  retryDelayMs,
} from '../../../src/webhooks/retry-schedule.js';

const DEFAULTS: RetryPolicy = { baseMs: 5000, maxDelayMs: 6 * 3600_000, maxAttempts: 12 };

describe('retry schedule', () => {
  it('starts at 5 s, grows fourfold and caps at 6 h', () => {
    expect([1, 2, 3, 4].map((r) => nominalDelayMs(DEFAULTS, r))).toEqual([5000, 20_000, 80_000, 320_000]);
    expect(nominalDelayMs(DEFAULTS, 9)).toBe(6 * 3600_000);
  });

  it('spans at least 24 hours with the defaults even with the least jitter', () => {
    let total = 0;
    for (let retry = 1; retry < DEFAULTS.maxAttempts; retry++)
      total += retryDelayMs(DEFAULTS, retry, () => 0);
    expect(total).toBeGreaterThanOrEqual(24 * 3600_000);
    expect(describeSchedule(DEFAULTS)).toHaveLength(11);
  });

  it('keeps every jittered delay within 20 % of the nominal one', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        (retry, r) => {
          const d = retryDelayMs(DEFAULTS, retry, () => r);
          const n = nominalDelayMs(DEFAULTS, retry);
          expect(d).toBeGreaterThanOrEqual(Math.floor(n * 0.8));
          expect(d).toBeLessThanOrEqual(Math.ceil(n * 1.2));
        },
      ),
    );
  });

  it('stops on 410, on a refused target and after the last attempt', () => {
    expect(decideRetry(DEFAULTS, 1, { kind: 'status', status: 410 }).retry).toBe(false);
    expect(decideRetry(DEFAULTS, 1, { kind: 'refused_target' }).retry).toBe(false);
    expect(decideRetry(DEFAULTS, 12, { kind: 'status', status: 500 }).retry).toBe(false);
    expect(decideRetry(DEFAULTS, 11, { kind: 'timeout' }).retry).toBe(true);
  });

  it('honours Retry-After only to push a retry later, bounded by the cap', () => {
    const half = () => 0.5;
    expect(decideRetry(DEFAULTS, 1, { kind: 'status', status: 429, retryAfterMs: 1000 }, half)).toEqual({
      retry: true,
      delayMs: 5000,
    });
    expect(decideRetry(DEFAULTS, 1, { kind: 'status', status: 503, retryAfterMs: 60_000 }, half)).toEqual({
      retry: true,
      delayMs: 60_000,
    });
    expect(
      decideRetry(DEFAULTS, 1, { kind: 'status', status: 503, retryAfterMs: 10 * 86_400_000 }, half),
    ).toEqual({ retry: true, delayMs: DEFAULTS.maxDelayMs });
  });

  it('parses Retry-After seconds and HTTP dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
