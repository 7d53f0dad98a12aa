import { describe, expect, it } from 'vitest';
import { ipv6Bytes, isPublicAddress } from '../../../src/webhooks/address-policy.js';

describe('delivery address policy', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '198.18.0.1',
    '::',
    '::1',
    '[::1]',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '::127.0.0.1',
    '64:ff9b::a00:1',
    '2002:c0a8:101::1',
    '2001:db8::1',
    // Found missing by an attacker: IPv4-translated (SIIT), local-use NAT64, Teredo, the 6to4 relay anycast
    // and the rest of the deprecated IPv4-compatible block.
    '::ffff:0:7f00:1',
    '::ffff:0:127.0.0.1',
    '::ffff:0:a9fe:a9fe',
    '64:ff9b:1::a00:1',
    '64:ff9b:1::808:808',
    '2001::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '192.88.99.1',
    '::2',
    '::0.0.0.2',
    // The rest of the IANA special-purpose registries that no delivery should reach: the other IETF
    // protocol assignments (benchmarking, ORCHID), the dummy prefix, documentation, SRv6 SIDs.
    '2001:2::1',
    '2001:10::1',
    '2001:1ff::1',
    '100:0:0:1::1',
    '3fff::1',
    '5f00::1',
    'not-an-ip',
    '',
  ])('refuses %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '93.184.216.34',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '::ffff:0:808:808',
    // Next to the refused IETF block: regional registry space.
    '2001:200::1',
  ])('allows %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it('parses IPv6 forms into 16 bytes', () => {
    expect(ipv6Bytes('::1')).toEqual([...Array(15).fill(0), 1]);
    expect(ipv6Bytes('::ffff:1.2.3.4')?.slice(10)).toEqual([0xff, 0xff, 1, 2, 3, 4]);
    expect(ipv6Bytes('1:2:3:4:5:6:7:8')).toHaveLength(16);
    expect(ipv6Bytes('1::2::3')).toBeUndefined();
    expect(ipv6Bytes('1:2:3')).toBeUndefined();
  });
});
