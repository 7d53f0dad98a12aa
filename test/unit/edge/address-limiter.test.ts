import { describe, expect, it } from 'vitest';
import { AddressLimiter } from '../../../src/edge/address-limiter.js';
import { retainedBytesEach, sliceOfPaddedText } from '../../helpers/retained-heap.js';

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

  it('keeps no request text alive with the addresses it counts', async () => {
    const limiter = new AddressLimiter({ max: 10, windowMs: 60_000 });
    // Behind a trusted proxy the address is read out of X-Forwarded-For, which the client may pad.
    const perAddress = await retainedBytesEach(2000, (i) =>
      limiter.hit(
        sliceOfPaddedText('x-forwarded-for: ', `198.${100 + Math.floor(i / 150)}.${100 + (i % 150)}.200`),
      ),
    );
    expect(perAddress).toBeLessThan(2000);
    expect(limiter.size).toBe(2000);
  });
});
