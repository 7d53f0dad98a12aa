import { describe, expect, it } from 'vitest';
import { AddressLimiter, limitedAddress } from '../../src/http/address-limiter.js';

describe('limitedAddress', () => {
  it('keeps IPv4 as it is, unwraps IPv4-mapped IPv6, and cuts IPv6 to its /64', () => {
    expect(limitedAddress('10.1.2.3')).toBe('10.1.2.3');
    expect(limitedAddress('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(limitedAddress('2001:db8:aa:bb:1:2:3:4')).toBe('2001:db8:aa:bb::/64');
    expect(limitedAddress('2001:0db8:00aa:00bb::9')).toBe('2001:db8:aa:bb::/64');
    expect(limitedAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(limitedAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(limitedAddress('::1')).toBe('0:0:0:0::/64');
  });
});

describe('AddressLimiter', () => {
  it('allows max requests per window and address, then answers the seconds to wait', () => {
    let now = 0;
    const limiter = new AddressLimiter({ max: 2, windowMs: 60_000, now: () => now });
    expect([limiter.hit('10.0.0.1'), limiter.hit('10.0.0.1')]).toEqual([0, 0]);
    expect(limiter.hit('10.0.0.1')).toBe(60);
    expect(limiter.hit('10.0.0.2')).toBe(0);
    // Another address of the same IPv6 /64 shares the count.
    expect([limiter.hit('2001:db8::1'), limiter.hit('2001:db8::2')]).toEqual([0, 0]);
    expect(limiter.hit('2001:db8::3')).toBeGreaterThan(0);
    now = 45_000;
    expect(limiter.hit('10.0.0.1')).toBe(15);
    now = 60_000;
    expect(limiter.hit('10.0.0.1')).toBe(0);
  });

  it('tracks at most maxAddresses, forgetting finished windows first', () => {
    let now = 0;
    const limiter = new AddressLimiter({ max: 1, windowMs: 1000, maxAddresses: 3, now: () => now });
    for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.3']) limiter.hit(ip);
    now = 500;
    limiter.hit('10.0.0.4');
    expect(limiter.size).toBe(3);
    // 10.0.0.1 was forgotten (the oldest), the others still count.
    expect(limiter.hit('10.0.0.3')).toBeGreaterThan(0);
    now = 1200;
    limiter.hit('10.0.0.5');
    expect(limiter.size).toBeLessThanOrEqual(3);
  });
});
