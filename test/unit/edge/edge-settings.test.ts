import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';

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
    // Off: carrier-grade NAT and office Wi-Fi put many real devices behind one address (an opt-in).
    expect(c.rateLimits.newDevicesPerAddressPerHour).toBe(0);
    expect(c.rateLimits.signinFailuresPerAccount).toBe(10);
    expect(c.rateLimits.signinFailureWindowMs).toBe(15 * 60_000);
  });

  it('takes 0 as "no limit" for the per-account and per-address limits, and a count as the opt-in', () => {
    const c = loadConfig({
      ...VALID,
      RATE_LIMIT_NEW_DEVICES_PER_ADDRESS_PER_HOUR: '0',
      RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT: '0',
    });
    expect(c.rateLimits.newDevicesPerAddressPerHour).toBe(0);
    expect(c.rateLimits.signinFailuresPerAccount).toBe(0);
    const opted = loadConfig({ ...VALID, RATE_LIMIT_NEW_DEVICES_PER_ADDRESS_PER_HOUR: '10' });
    expect(opted.rateLimits.newDevicesPerAddressPerHour).toBe(10);
  });

  it('serves every surface by default, and takes a comma list of device, control and console', () => {
    expect([...loadConfig(VALID).http.surfaces]).toEqual(['device', 'control', 'console']);
    expect([...loadConfig({ ...VALID, API_SURFACES: 'device' }).http.surfaces]).toEqual(['device']);
    expect([...loadConfig({ ...VALID, API_SURFACES: 'control, console' }).http.surfaces]).toEqual([
      'control',
      'console',
    ]);
    for (const bad of ['edge', 'device,admin', ' , '])
      expect(() => loadConfig({ ...VALID, API_SURFACES: bad }), bad).toThrow(/API_SURFACES/);
  });

  it('bounds every connection: the request within 30 s, idle keep-alive, open connections', () => {
    const c = loadConfig(VALID);
    expect(c.http.requestTimeoutMs).toBe(30_000);
    expect(c.http.keepAliveTimeoutMs).toBe(72_000);
    expect(c.http.maxConnections).toBe(10_000);
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
