import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';

const VALID = {
  DATABASE_URL: 'postgres://u:p@localhost:5432/db',
  REDIS_URL: 'redis://localhost:6379',
  CLICKHOUSE_URL: 'http://localhost:8123',
  AUTH_TOKEN_SECRET: 's'.repeat(32),
  WEBHOOK_SECRET_KEY: 'ab'.repeat(32),
};

describe('settings of the device edge and sign-in limits', () => {
  it('has documented defaults', () => {
    const c = loadConfig(VALID);
    expect(c.http.trustProxy).toBe(false);
    expect(c.rateLimits.newDevicesPerAddressPerHour).toBe(10);
    expect(c.rateLimits.signinFailuresPerAccount).toBe(10);
    expect(c.rateLimits.signinFailureWindowMs).toBe(15 * 60_000);
  });

  it('takes 0 as "no limit" for the per-account and per-address limits', () => {
    const c = loadConfig({
      ...VALID,
      RATE_LIMIT_NEW_DEVICES_PER_ADDRESS_PER_HOUR: '0',
      RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT: '0',
    });
    expect(c.rateLimits.newDevicesPerAddressPerHour).toBe(0);
    expect(c.rateLimits.signinFailuresPerAccount).toBe(0);
  });

  it('takes the proxies in front of the API as addresses, CIDR ranges or named ranges', () => {
    const trust = (value: string) => loadConfig({ ...VALID, TRUST_PROXY: value }).http.trustProxy;
    expect(trust('false')).toBe(false);
    expect(trust('uniquelocal')).toBe('uniquelocal');
    expect(trust('10.0.0.0/8, 172.16.0.0/12,fd00::/8')).toBe('10.0.0.0/8,172.16.0.0/12,fd00::/8');
    expect(trust('203.0.113.5,loopback')).toBe('203.0.113.5,loopback');
  });

  it('refuses TRUST_PROXY values that would let a client choose its own address', () => {
    for (const value of ['true', '1', '2', '10.0.0.0/33', 'proxy.internal', '10.0.0.1/8/1', 'fd00::/129']) {
      expect(() => loadConfig({ ...VALID, TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY/);
    }
  });
});
