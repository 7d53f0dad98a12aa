import { ownString } from '../platform/own-string.js';
import { clientBucket } from './client-address.js';

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
 * Fixed-window request counts per client address, in process: deciding costs no round trip, and an
 * address over its limit is turned away before its body is read. Each API process counts on its own, so
 * behind a balancer spreading one address over N processes the address gets up to N times the limit.
 */
export class AddressLimiter {
  /** Requests refused since the process started. */
  refused = 0;
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
   * is no peer address to read, and Fastify's `request.ip` is undefined) counts in one shared bucket.
   */
  hit(ip: string | undefined): number {
    const key = clientBucket(ip);
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.startedAt >= this.options.windowMs) {
      if (window) this.windows.delete(key);
      else if (this.windows.size >= this.maxAddresses) this.makeRoom(now);
      window = { startedAt: now, count: 0 };
      // A copy: behind a trusted proxy the address is a slice of X-Forwarded-For, which the client may
      // pad, and V8 would keep the whole header alive with it for the window's length.
      this.windows.set(ownString(key), window);
    }
    window.count += 1;
    if (window.count <= this.options.max) return 0;
    this.refused += 1;
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
