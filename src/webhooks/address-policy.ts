import { BlockList, isIPv4, isIPv6 } from 'node:net';

/**
 * Which addresses a delivery may connect to. Private, loopback, link-local, unique-local, unspecified,
 * carrier-grade NAT, documentation, benchmarking, multicast and reserved ranges are refused, so a webhook
 * URL cannot be used to reach the service's own network (cloud metadata at 169.254.169.254 included).
 * IPv6 forms that embed an IPv4 address (mapped, translated, compatible, NAT64, 6to4) are judged by that
 * address. The lists follow IANA's IPv4 and IPv6 special-purpose address registries: every block that is
 * not globally reachable, plus tunnels and relays that lead anywhere (Teredo, the 6to4 relay anycast).
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['100:0:0:1::', 64],
  // IETF protocol assignments: Teredo (2001::/32), benchmarking, ORCHID, anycast services; no webhook.
  ['2001::', 23],
  ['2001:db8::', 32],
  ['3fff::', 20],
  ['5f00::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** True when the address is a public unicast address a delivery may connect to. */
export function isPublicAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIPv4(ip)) return !blocked.check(ip, 'ipv4');
  if (!isIPv6(ip)) return false;
  const bytes = ipv6Bytes(ip);
  if (!bytes) return false;
  const embedded = embeddedIPv4(bytes);
  if (embedded !== undefined) return !blocked.check(embedded, 'ipv4');
  return !blocked.check(ip, 'ipv6');
}

function embeddedIPv4(b: number[]): string | undefined {
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const v4 = (at: number) => b.slice(at, at + 4).join('.');
  // ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (translated) and ::a.b.c.d (compatible, deprecated: the
  // whole ::/96, :: and ::1 included, is judged as the 0.0.0.0/8 it carries).
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4(12);
  if (zeros(0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(10, 12)) return v4(12);
  if (zeros(0, 12)) return v4(12);
  // 64:ff9b::/96, the NAT64 well-known prefix.
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return v4(12);
  // 2002::/16, 6to4: the IPv4 address follows the prefix.
  if (b[0] === 0x20 && b[1] === 0x02) return v4(2);
  return undefined;
}

/** The 16 bytes of an IPv6 address (with a trailing dotted quad allowed), or undefined. */
export function ipv6Bytes(ip: string): number[] | undefined {
  let text = ip;
  const tail: number[] = [];
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    if (!isIPv4(quad[1]!)) return undefined;
    const parts = quad[1]!.split('.').map(Number);
    tail.push(parts[0]!, parts[1]!, parts[2]!, parts[3]!);
    text = `${text.slice(0, -quad[1]!.length)}0:0`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  const fill = halves.length === 2 ? 8 - head.length - rest.length : 0;
  if (fill < 0 || (halves.length === 1 && head.length !== 8)) return undefined;
  const all = [...head, ...Array(fill).fill('0'), ...rest];
  const bytes: number[] = [];
  for (const g of all) {
    const n = Number.parseInt(g, 16);
    if (!/^[0-9a-fA-F]{1,4}$/.test(g) || Number.isNaN(n)) return undefined;
    bytes.push(n >> 8, n & 0xff);
  }
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes.length === 16 ? bytes : undefined;
}
