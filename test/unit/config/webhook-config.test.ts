import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';
import { describeSchedule } from '../../../src/webhooks/retry-schedule.js';

const VALID = {
  DATABASE_URL: 'postgres://u:p@localhost:5432/db',
  REDIS_URL: 'redis://localhost:6379',
  CLICKHOUSE_URL: 'http://localhost:8123',
  AUTH_TOKEN_SECRET: 's'.repeat(32),
  WEBHOOK_SECRET_KEY: 'ab'.repeat(32),
};

describe('webhook settings', () => {
  it('defaults to a schedule that starts within 5 s and spans more than a day', () => {
    const w = loadConfig(VALID).webhooks;
    expect(w).toMatchObject({
      retryBaseMs: 5000,
      retryMaxDelayMs: 21_600_000,
      maxAttempts: 12,
      dispatchPollMs: 1000,
    });
    const schedule = describeSchedule({
      baseMs: w.retryBaseMs,
      maxDelayMs: w.retryMaxDelayMs,
      maxAttempts: w.maxAttempts,
    });
    expect(schedule[0]!.delayMs).toBe(5000);
    expect(schedule.at(-1)!.totalMs * 0.8).toBeGreaterThan(24 * 3600_000);
  });

  it('takes overrides and refuses non-numbers', () => {
    const w = loadConfig({ ...VALID, WEBHOOK_RETRY_BASE_MS: '50', WEBHOOK_MAX_ATTEMPTS: '3' }).webhooks;
    expect(w.retryBaseMs).toBe(50);
    expect(w.maxAttempts).toBe(3);
    expect(() => loadConfig({ ...VALID, WEBHOOK_RETRY_BASE_MS: 'soon' })).toThrow(/WEBHOOK_RETRY_BASE_MS/);
  });
});
