import { describe, expect, it } from 'vitest';
import { clientBucket, clientNetwork } from '../../../src/edge/client-address.js';

describe('client address buckets (the unit per-address limits count)', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(clientBucket('198.51.100.9')).toBe('198.51.100.9');
    expect(clientBucket('127.0.0.1')).toBe('127.0.0.1');
  });

  it('reads an IPv4-mapped IPv6 address as its IPv4 form', () => {
    expect(clientBucket('::ffff:198.51.100.9')).toBe('198.51.100.9');
    expect(clientBucket('::FFFF:c633:6409')).toBe('198.51.100.9');
  });

  it('counts an IPv6 address by its /64, whatever its spelling', () => {
    const bucket = '2001:db8:aa:bb::/64';
    for (const address of [
      '2001:db8:aa:bb::1',
      '2001:0db8:00aa:00bb:ffff:ffff:ffff:ffff',
      '2001:DB8:AA:BB:1:2:3:4',
      '2001:db8:aa:bb::192.0.2.1',
      '[2001:db8:aa:bb::7]',
      'fe80::1%eth0'.replace('fe80::1', '2001:db8:aa:bb::1'),
    ]) {
      expect(clientBucket(address), address).toBe(bucket);
    }
    expect(clientBucket('2001:db8:aa:bc::1')).toBe('2001:db8:aa:bc::/64');
    expect(clientBucket('::1')).toBe('0:0:0:0::/64');
    expect(clientBucket('2001:db8::')).toBe('2001:db8:0:0::/64');
  });

  it('puts what is not an address into one shared bucket', () => {
    for (const value of [undefined, '', 'unknown', '300.1.1.1', '2001:db8::g']) {
      expect(clientBucket(value)).toBe('-');
    }
  });
});

describe('client networks (the unit error-spike decisions count)', () => {
  it('counts an IPv4 address by its /24, an IPv4-mapped one likewise', () => {
    expect(clientNetwork('198.51.100.9')).toBe('198.51.100.0/24');
    expect(clientNetwork('198.51.100.250')).toBe('198.51.100.0/24');
    expect(clientNetwork('::ffff:198.51.100.9')).toBe('198.51.100.0/24');
    expect(clientNetwork('198.51.101.9')).toBe('198.51.101.0/24');
  });

  it('counts an IPv6 address by its /48, whatever its spelling', () => {
    expect(clientNetwork('2001:db8:aa:bb::1')).toBe('2001:db8:aa::/48');
    expect(clientNetwork('2001:0DB8:00AA:ffff::1')).toBe('2001:db8:aa::/48');
    expect(clientNetwork('[2001:db8:ab::1]')).toBe('2001:db8:ab::/48');
  });

  it('counts a 6to4 or Teredo address by the IPv4 /24 inside it: one IPv4 address is not 65,536 networks', () => {
    // 6to4: 2002:<IPv4>::/48 belongs to whoever holds that IPv4 address (198.51.100.9 = c633:6409).
    expect(clientNetwork('2002:c633:6409::1')).toBe('198.51.100.0/24');
    expect(clientNetwork('2002:c633:6409:ffff::2')).toBe('198.51.100.0/24');
    expect(clientNetwork('2002:c633:64fe:1::1')).toBe('198.51.100.0/24');
    // Teredo: 2001:0::/32, the client's IPv4 address in the last 32 bits, each bit inverted.
    expect(clientNetwork('2001:0:4136:e378:8000:63bf:39cc:9bf6')).toBe('198.51.100.0/24');
    expect(clientNetwork('2001:0:1:2:3:4:39cc:9b00')).toBe('198.51.100.0/24');
    // And the per-address limits count that IPv4 address, not the /64s the prefix holds.
    expect(clientBucket('2002:c633:6409:1::1')).toBe('198.51.100.9');
    expect(clientBucket('2002:c633:6409:2::1')).toBe('198.51.100.9');
    expect(clientBucket('2001:0:4136:e378:8000:63bf:39cc:9bf6')).toBe('198.51.100.9');
  });

  it('puts what is not an address into one shared network', () => {
    for (const value of [undefined, '', 'unknown', '300.1.1.1']) expect(clientNetwork(value)).toBe('-');
  });
});
