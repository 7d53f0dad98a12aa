import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';
import { ConfigError } from '../../../src/config/env.js';

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

  it('refuses a token secret shorter than 32 bytes, counted in bytes, and never echoes it', () => {
    const message = (env: Record<string, string>) => {
      try {
        loadConfig({ ...VALID, ...env });
        return '';
      } catch (err) {
        return (err as Error).message;
      }
    };
    expect(message({ AUTH_TOKEN_SECRET: 'x'.repeat(31) })).toMatch(
      /AUTH_TOKEN_SECRET: must be at least 32 bytes/,
    );
    expect(message({ AUTH_TOKEN_SECRET: '€'.repeat(10) })).toMatch(/AUTH_TOKEN_SECRET/); // 30 bytes
    expect(message({ AUTH_TOKEN_SECRET: 'é'.repeat(16) })).toBe(''); // 16 characters, 32 bytes
    const short = message({ AUTH_TOKEN_PREVIOUS_SECRETS: `${'p'.repeat(40)},too-short-${'q'.repeat(5)}` });
    expect(short).toMatch(/AUTH_TOKEN_PREVIOUS_SECRETS: must be at least 32 bytes/);
    expect(short).not.toContain('too-short');
    expect(message({ OPERATOR_TOKEN: 'short-operator' })).toMatch(
      /OPERATOR_TOKEN: must be at least 32 bytes/,
    );
    expect(loadConfig({ ...VALID, OPERATOR_TOKEN: 'o'.repeat(32) }).operatorToken).toBe('o'.repeat(32));
    expect(loadConfig(VALID).operatorToken).toBeNull();
  });

  it('refuses the secrets this project once published as compose defaults', () => {
    expect(() =>
      loadConfig({ ...VALID, AUTH_TOKEN_SECRET: 'development-only-token-secret-change-me-0123456789' }),
    ).toThrow(/AUTH_TOKEN_SECRET: is a value published with this project/);
    expect(() =>
      loadConfig({
        ...VALID,
        WEBHOOK_SECRET_KEY: '00112233445566778899AABBCCDDEEFF00112233445566778899aabbccddeeff',
      }),
    ).toThrow(/WEBHOOK_SECRET_KEY: is a value published with this project/);
  });

  it('reads the previous token secrets of a rotation', () => {
    const previous = ['a'.repeat(32), 'b'.repeat(40)];
    expect(
      loadConfig({ ...VALID, AUTH_TOKEN_PREVIOUS_SECRETS: ` ${previous.join(' , ')} ` }).auth,
    ).toMatchObject({
      tokenSecret: VALID.AUTH_TOKEN_SECRET,
      previousSecrets: previous,
    });
    expect(loadConfig(VALID).auth.previousSecrets).toEqual([]);
  });

  it('defaults invitations to 7 days and sends no mail without SMTP_URL', () => {
    const c = loadConfig(VALID);
    expect(c.invitations.ttlSeconds).toBe(7 * 86_400);
    expect(c.smtp).toBeNull();
    expect(loadConfig({ ...VALID, SMTP_URL: 'smtp://mail.example.com:587' }).smtp).toEqual({
      url: 'smtp://mail.example.com:587',
      from: 'OTA <no-reply@127.0.0.1>',
      timeoutMs: 10_000,
    });
    expect(() => loadConfig({ ...VALID, SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL/);
  });
});
