import { isIPv4, isIPv6 } from 'node:net';

/**
 * Where a device request came from: the Fastify request itself will do (its `ip` honours TRUST_PROXY).
 * Read only when a device is new to a capped workspace, so an admitted device's check never works out
 * its address.
 */
export interface DeviceClient {
  readonly ip: string | undefined;
}

/**
 * The client a limit counts, from the request's address: an IPv4 address as it is, an IPv6 address by its
 * /64 prefix (one host or one home network gets a whole /64, and rotating through it must not reset a
 * limit), and an IPv4-mapped IPv6 address (`::ffff:198.51.100.9`) as its IPv4 form. Anything else (no
 * address at all) is one shared bucket.
 */
export function clientBucket(address: string | undefined): string {
  // Most requests come from a plain IPv4 address, which is its own bucket: no parse needed.
  if (address !== undefined && !address.includes(':') && isIPv4(address)) return address;
  const parsed = parseAddress(address);
  if (parsed === null) return '-';
  if (parsed.v4) return parsed.v4.join('.');
  return `${hexGroups(parsed.v6!.slice(0, 4))}::/64`;
}

/**
 * The client network an address belongs to: an IPv4 /24 or an IPv6 /48, the unit an operator's or a
 * provider's block of addresses comes in. Decisions that act on many devices' reports (an error spike,
 * an automatic pause or rollback) count networks, so one party inventing device ids from one place
 * counts once. No address: one shared network.
 */
export function clientNetwork(address: string | undefined): string {
  const parsed = parseAddress(address);
  if (parsed === null) return '-';
  if (parsed.v4) return `${parsed.v4.slice(0, 3).join('.')}.0/24`;
  return `${hexGroups(parsed.v6!.slice(0, 3))}::/48`;
}

/**
 * The four octets of an IPv4 address, else the eight IPv6 groups. IPv6 forms whose address is an IPv4
 * address's count as that address: IPv4-mapped (`::ffff:a.b.c.d`), 6to4 (`2002:<IPv4>::/48`, which anyone
 * holding that IPv4 address has, 65,536 /64s of it) and Teredo (`2001:0::/32`, the client's IPv4 address
 * in the last 32 bits, inverted).
 */
function parseAddress(address: string | undefined): { v4?: number[]; v6?: number[] } | null {
  if (!address) return null;
  const plain = address.startsWith('[') ? address.slice(1, address.indexOf(']')) : address;
  const withoutZone = plain.split('%')[0]!;
  if (isIPv4(withoutZone)) return { v4: withoutZone.split('.').map(Number) };
  if (!isIPv6(withoutZone)) return null;
  const groups = expandIPv6(withoutZone);
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return { v4: octets(groups[6]!, groups[7]!) };
  if (groups[0] === 0x2002) return { v4: octets(groups[1]!, groups[2]!) };
  if (groups[0] === 0x2001 && groups[1] === 0)
    return { v4: octets(~groups[6]! & 0xffff, ~groups[7]! & 0xffff) };
  return { v6: groups };
}

function octets(high: number, low: number): number[] {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff];
}

function hexGroups(groups: number[]): string {
  return groups.map((g) => g.toString(16)).join(':');
}

/** The eight 16-bit groups of a valid IPv6 address (`::` and a trailing dotted IPv4 part expanded). */
function expandIPv6(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const front = parse(head);
  if (tail === undefined) return front;
  const back = parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}
