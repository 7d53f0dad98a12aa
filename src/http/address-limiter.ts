import { isIPv6 } from 'node:net';

export interface AddressLimiterOptions {
  /** Requests one client address may make per window. */
  max: number;
  windowMs: number;
  /** Most addresses tracked at once; past it, finished windows are swept, then the oldest are forgotten. */
  maxAddresses?: number;
  now?: () => number;
}

interface Window {
  startedAt: number;
  count: number;
}

/**
 * The address a limit applies to: an IPv4 address as it is (an IPv4-mapped IPv6 address as its IPv4
 * form), an IPv6 address as its /64 prefix, since one subscriber is handed a whole /64 and could otherwise
 * pick a fresh address per request.
 */
export function limitedAddress(ip: string): string {
  if (!ip.includes(':')) return ip;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  const bare = ip.split('%')[0]!;
  if (!isIPv6(bare)) return ip;
  const [head = '', tail] = bare.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined
      ? headGroups
      : [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * Fixed-window request counts per client address, in process: deciding costs no round trip, and an
 * address over its limit is turned away before its body is read. Each API process counts on its own, so
 * behind a balancer spreading one address over N processes the address gets up to N times the limit.
 */
export class AddressLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly maxAddresses: number;
  private readonly now: () => number;

  constructor(private readonly options: AddressLimiterOptions) {
    this.maxAddresses = options.maxAddresses ?? 100_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * Counts one request; 0 when it is allowed, otherwise the seconds until the address may try again. An
   * unknown address (undefined: the client reset its connection before its request was handled, so there
   * is no peer address to read, and Fastify's `request.ip` is undefined) counts under ''.
   */
  hit(ip: string | undefined): number {
    const key = limitedAddress(ip ?? '');
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.startedAt >= this.options.windowMs) {
      if (window) this.windows.delete(key);
      else if (this.windows.size >= this.maxAddresses) this.makeRoom(now);
      window = { startedAt: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    if (window.count <= this.options.max) return 0;
    return Math.max(1, Math.ceil((window.startedAt + this.options.windowMs - now) / 1000));
  }

  get size(): number {
    return this.windows.size;
  }

  private makeRoom(now: number): void {
    // Maps iterate in insertion order and a window is re-inserted when it restarts: oldest first.
    for (const [key, window] of this.windows) {
      if (now - window.startedAt < this.options.windowMs) break;
      this.windows.delete(key);
    }
    while (this.windows.size >= this.maxAddresses) {
      const oldest = this.windows.keys().next().value;
      if (oldest === undefined) break;
      this.windows.delete(oldest);
    }
  }
}
