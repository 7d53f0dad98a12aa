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
  if (!address) return '-';
  const plain = address.startsWith('[') ? address.slice(1, address.indexOf(']')) : address;
  const withoutZone = plain.split('%')[0]!;
  if (isIPv4(withoutZone)) return withoutZone;
  if (!isIPv6(withoutZone)) return '-';
  const groups = expandIPv6(withoutZone);
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return `${groups[6]! >> 8}.${groups[6]! & 0xff}.${groups[7]! >> 8}.${groups[7]! & 0xff}`;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
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
