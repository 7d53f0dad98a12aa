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

/** The map is swept of full buckets whenever it has doubled since the last sweep, and never below this. */
const FIRST_SWEEP = 1024;

/**
 * The device rate limit, decided in process: a token bucket per key holding this copy's share of the
 * per-minute allowance, refilled continuously. Deciding costs a map lookup and no round trip, so an admitted
 * device reaches its route without waiting on Redis.
 *
 * The bucket is kept as one number, the time at which it is full again (the "theoretical arrival time" of
 * the generic cell rate algorithm): each request pushes it one interval (60 s / share) later, and a
 * request is refused when that time lies more than the bucket's depth ahead. A key whose time has passed
 * holds a full bucket, the same as no entry at all, so such entries are swept whenever the map has
 * doubled: with the default figures a device's entry is dead weight 100 ms after its request, and the map
 * holds only the devices busy right now rather than every device seen.
 */
export class DeviceLimiter {
  /** key -> when its bucket is full again (ms). */
  private readonly fullAt = new Map<string, number>();
  private readonly capacity: number;
  /** Milliseconds one token takes to come back. */
  private readonly interval: number;
  /** How far ahead of now `fullAt` may be once a request is admitted: the bucket's depth. */
  private readonly depth: number;
  private readonly maxKeys: number;
  private readonly now: () => number;
  private sweepAt: number;

  constructor(options: DeviceLimiterOptions) {
    const copies = Math.max(1, Math.floor(options.copies ?? 1));
    // Rounded up, so a small limit never becomes zero on a copy; N copies may then allow up to N - 1 more.
    this.capacity = Math.max(1, Math.ceil(options.perMinute / copies));
    this.interval = 60_000 / this.capacity;
    this.depth = this.capacity * this.interval;
    this.maxKeys = Math.max(1, options.maxKeys ?? 200_000);
    this.now = options.now ?? Date.now;
    this.sweepAt = Math.min(this.maxKeys, FIRST_SWEEP);
  }

  /** Takes one token; 0 when the request may pass, otherwise the seconds until the key has one again. */
  take(key: string): number {
    const now = this.now();
    const before = this.fullAt.get(key);
    const from = before === undefined || before < now ? now : before;
    const next = from + this.interval;
    if (next - now > this.depth) return Math.max(1, Math.ceil((next - now - this.depth) / 1000));
    if (before === undefined && this.fullAt.size >= this.sweepAt) this.makeRoom(now);
    this.fullAt.set(key, next);
    return 0;
  }

  /** This copy's share of the per-minute allowance (the bucket's size). */
  get share(): number {
    return this.capacity;
  }

  get size(): number {
    return this.fullAt.size;
  }

  private makeRoom(now: number): void {
    for (const [key, fullAt] of this.fullAt) if (fullAt <= now) this.fullAt.delete(key);
    // Only when more keys than maxKeys are busy at once: the oldest-made go (each then starts again from a
    // full bucket), down to nine tenths so this is not repeated on every new key.
    if (this.fullAt.size >= this.maxKeys) {
      const target = Math.floor(this.maxKeys * 0.9);
      for (const key of this.fullAt.keys()) {
        if (this.fullAt.size <= target) break;
        this.fullAt.delete(key);
      }
    }
    this.sweepAt = Math.min(this.maxKeys, Math.max(FIRST_SWEEP, 2 * this.fullAt.size));
  }
}
