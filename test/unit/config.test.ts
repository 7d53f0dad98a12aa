import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';

const VALID = {
  DATABASE_URL: 'postgres://u:p@localhost:5432/db',
  REDIS_URL: 'redis://localhost:6379',
  CLICKHOUSE_URL: 'http://localhost:8123',
  AUTH_TOKEN_SECRET: 's'.repeat(32),
  WEBHOOK_SECRET_KEY: 'ab'.repeat(32),
};

describe('loadConfig', () => {
  it('applies documented defaults', () => {
    const c = loadConfig(VALID);
    expect(c.host).toBe('127.0.0.1');
    expect(c.port).toBe(8080);
    expect(c.publicUrl).toBe('http://127.0.0.1:8080');
    expect(c.devices.windowDays).toBe(30);
    expect(c.webhooks.allowPrivateTargets).toBe(false);
    expect(c.webhooks.timeoutMs).toBe(15000);
    expect(c.webhooks.secretKey).toHaveLength(32);
  });

  it('names every missing or bad variable, without echoing secrets', () => {
    let message = '';
    try {
      loadConfig({ ...VALID, PORT: 'eighty', AUTH_TOKEN_SECRET: 'short', DATABASE_URL: undefined });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    expect(message).toContain('PORT');
    expect(message).toContain('AUTH_TOKEN_SECRET');
    expect(message).toContain('DATABASE_URL');
    expect(message).not.toContain('short');
  });

  it('rejects an out-of-range port and a malformed boolean', () => {
    expect(() => loadConfig({ ...VALID, PORT: '70000' })).toThrow(/PORT/);
    expect(() => loadConfig({ ...VALID, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'yes' })).toThrow(
      /WEBHOOK_ALLOW_PRIVATE_TARGETS/,
    );
  });

  it('takes PUBLIC_URL without a trailing slash', () => {
    expect(loadConfig({ ...VALID, PUBLIC_URL: 'https://ota.example.com/' }).publicUrl).toBe(
      'https://ota.example.com',
    );
  });
});
