export interface DeviceLimiterOptions {
  /** Requests one key (app and device) may make per minute, over every API copy together. */
  perMinute: number;
  /**
   * API copies sharing the traffic (API_COPIES): each copy allows its share, perMinute / copies, so the
   * deployment as a whole allows about perMinute without any copy asking another (see README).
   */
  copies?: number;
  /** Most keys tracked at once; past it, full buckets are swept, then the oldest keys are forgotten. */
  maxKeys?: number;
  now?: () => number;
}

interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date (ms). */
  at: number;
}

/**
 * The device rate limit, decided in process: a token bucket per key holding this copy's share of the
 * per-minute allowance, refilled continuously. Deciding costs a map lookup and no round trip, so an admitted
 * device reaches its route without waiting on Redis. A key absent from the map is a full bucket, which is
 * why full buckets may be forgotten whenever room is needed.
 */
export class DeviceLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly capacity: number;
  /** Tokens per millisecond. */
  private readonly rate: number;
  private readonly maxKeys: number;
  private readonly now: () => number;

  constructor(options: DeviceLimiterOptions) {
    const copies = Math.max(1, Math.floor(options.copies ?? 1));
    // Rounded up, so a small limit never becomes zero on a copy; N copies may then allow up to N - 1 more.
    this.capacity = Math.max(1, Math.ceil(options.perMinute / copies));
    this.rate = this.capacity / 60_000;
    this.maxKeys = Math.max(1, options.maxKeys ?? 200_000);
    this.now = options.now ?? Date.now;
  }

  /** Takes one token; 0 when the request may pass, otherwise the seconds until the key has one again. */
  take(key: string): number {
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      if (this.buckets.size >= this.maxKeys) this.makeRoom(now);
      bucket = { tokens: this.capacity, at: now };
      this.buckets.set(key, bucket);
    } else if (now > bucket.at) {
      bucket.tokens = Math.min(this.capacity, bucket.tokens + (now - bucket.at) * this.rate);
      bucket.at = now;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.rate / 1000));
  }

  /** This copy's share of the per-minute allowance (the bucket's size). */
  get share(): number {
    return this.capacity;
  }

  get size(): number {
    return this.buckets.size;
  }

  private makeRoom(now: number): void {
    // A bucket that has refilled is the same as no bucket: forgetting it changes no decision.
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.at) * this.rate >= this.capacity) this.buckets.delete(key);
    }
    // Only when more keys than maxKeys were busy within a minute: the oldest-made go (each then starts
    // again from a full bucket), down to nine tenths so the sweep is not repeated on every new key.
    const target = Math.floor(this.maxKeys * 0.9);
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= target) break;
      this.buckets.delete(key);
    }
  }
}
