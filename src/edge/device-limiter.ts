import { Fingerprinter } from '../platform/fingerprint.js';

export interface DeviceLimiterOptions {
  /** Requests one key (app and device) may make per minute, over every API copy together. */
  perMinute: number;
  /**
   * API copies sharing the traffic (API_COPIES): each copy allows its share, perMinute / copies, so the
   * deployment as a whole allows about perMinute without any copy asking another (see
   * docs/reference/device-edge.md, "Rate limits").
   */
  copies?: number;
  /** Most keys tracked at once; past it, full buckets are dropped, then the buckets nearest to full. */
  maxKeys?: number;
  now?: () => number;
}

/** The smallest table (slots); it grows with the keys busy at once, up to twice maxKeys. */
const MIN_SLOTS = 1024;

/**
 * The device rate limit, decided in process: a token bucket per key holding this copy's share of the
 * per-minute allowance, refilled continuously. Deciding costs a hash of the key and a probe of a table,
 * and no round trip, so an admitted device reaches its route without waiting on Redis.
 *
 * The bucket is kept as one number, the time at which it is full again (the "theoretical arrival time" of
 * the generic cell rate algorithm): each request pushes it one interval (60 s / share) later, and a
 * request is refused when that time lies more than the bucket's depth ahead. A key whose time has passed
 * holds a full bucket, the same as no entry at all: with the default figures a device's entry is dead
 * weight 100 ms after its request, so the table holds only the devices busy right now.
 *
 * The table is typed arrays (open addressing, linear probing) keyed by a 64-bit fingerprint of the key,
 * not a Map of key strings: every update check passes through here, and a Map kept each check's key
 * string alive for a few hundred milliseconds, long enough for the young-generation collector to copy it
 * and for the map's lookups to miss the cache (bench/profiles.md: 2-4 µs of API CPU per check). Two keys
 * share a bucket only if both 32-bit hashes of each agree, about 1 in 10^19 per pair; the first hash is
 * seeded per process, so nobody can aim keys at one probe chain.
 */
export class DeviceLimiter {
  /** Requests refused since the process started. */
  refused = 0;
  private readonly capacity: number;
  /** Milliseconds one token comes back in. */
  private readonly interval: number;
  /** How far ahead of now a key's `fullAt` may be once a request is admitted: the bucket's depth. */
  private readonly depth: number;
  private readonly maxKeys: number;
  private readonly now: () => number;
  private readonly fingerprint = new Fingerprinter();
  /** Per slot: when its key's bucket is full again (ms); 0 for a slot never used since the last rebuild. */
  private fullAt = new Float64Array(MIN_SLOTS);
  /** Per slot, two numbers: the key's fingerprint. */
  private prints = new Int32Array(2 * MIN_SLOTS);
  /** Slots used (live or dead) since the last rebuild, and how many may be before the next. */
  private used = 0;
  private usedLimit: number;

  constructor(options: DeviceLimiterOptions) {
    const copies = Math.max(1, Math.floor(options.copies ?? 1));
    // Rounded up, so a small limit never becomes zero on a copy; N copies may then allow up to N - 1 more.
    this.capacity = Math.max(1, Math.ceil(options.perMinute / copies));
    this.interval = 60_000 / this.capacity;
    this.depth = this.capacity * this.interval;
    this.maxKeys = Math.max(1, options.maxKeys ?? 200_000);
    this.now = options.now ?? Date.now;
    this.usedLimit = this.limitFor(MIN_SLOTS);
  }

  /** Takes one token; 0 when the request may pass, otherwise the seconds until the key has one again. */
  take(key: string): number {
    const now = this.now();
    const print1 = this.fingerprint.of(key);
    const print2 = this.fingerprint.second;
    const fullAt = this.fullAt;
    const prints = this.prints;
    const mask = fullAt.length - 1;
    let slot = print1 & mask;
    let reusable = -1;
    let before = 0;
    for (;;) {
      const at = fullAt[slot]!;
      if (at === 0) break;
      if (prints[2 * slot] === print1 && prints[2 * slot + 1] === print2) {
        before = at;
        break;
      }
      // A dead entry (its bucket full again) may take this key, once the key is known not to be further on.
      if (reusable === -1 && at <= now) reusable = slot;
      slot = (slot + 1) & mask;
    }
    const from = before < now ? now : before;
    const next = from + this.interval;
    if (next - now > this.depth) {
      this.refused += 1;
      return Math.max(1, Math.ceil((next - now - this.depth) / 1000));
    }
    if (before === 0) {
      if (reusable !== -1) slot = reusable;
      else this.used += 1;
      prints[2 * slot] = print1;
      prints[2 * slot + 1] = print2;
    }
    fullAt[slot] = next;
    if (this.used >= this.usedLimit) this.rebuild(now, slot);
    return 0;
  }

  /** This copy's share of the per-minute allowance (the bucket's size). */
  get share(): number {
    return this.capacity;
  }

  /** Keys held (a dead one counts until the next rebuild drops it). */
  get size(): number {
    return this.used;
  }

  /**
   * A fresh table holding the live keys only, sized for them. Past maxKeys live keys, the buckets nearest
   * to full go first (each then starts again from a full bucket), down to nine tenths of maxKeys, so this
   * is not repeated on every new key; the key just served (`current`, its slot) always stays.
   */
  private rebuild(now: number, current: number): void {
    const oldFull = this.fullAt;
    const oldPrints = this.prints;
    let live = 0;
    for (let i = 0; i < oldFull.length; i++) if (oldFull[i]! > now) live += 1;
    // Buckets full again at `cutoff` or sooner go, but only `tiesToDrop` of those full exactly then.
    let cutoff = now;
    let tiesToDrop = 0;
    if (live >= this.maxKeys) {
      const times = new Float64Array(live);
      let n = 0;
      for (let i = 0; i < oldFull.length; i++) if (oldFull[i]! > now) times[n++] = oldFull[i]!;
      times.sort();
      const drop = live - Math.floor(this.maxKeys * 0.9);
      cutoff = times[drop - 1]!;
      let below = 0;
      while (below < drop && times[below]! < cutoff) below += 1;
      tiesToDrop = drop - below;
      live -= drop;
    }
    let slots = MIN_SLOTS;
    while (slots < 4 * (live + 1) && slots < 2 * this.maxKeys) slots *= 2;
    const fullAt = new Float64Array(slots);
    const prints = new Int32Array(2 * slots);
    const mask = slots - 1;
    let used = 0;
    for (let i = 0; i < oldFull.length; i++) {
      const at = oldFull[i]!;
      if (at <= now) continue;
      if (i !== current && at <= cutoff) {
        if (at < cutoff) continue;
        if (tiesToDrop > 0) {
          tiesToDrop -= 1;
          continue;
        }
      }
      let slot = oldPrints[2 * i]! & mask;
      while (fullAt[slot] !== 0) slot = (slot + 1) & mask;
      fullAt[slot] = at;
      prints[2 * slot] = oldPrints[2 * i]!;
      prints[2 * slot + 1] = oldPrints[2 * i + 1]!;
      used += 1;
    }
    this.fullAt = fullAt;
    this.prints = prints;
    this.used = used;
    this.usedLimit = this.limitFor(slots);
  }

  /** Slots that may be used before a rebuild: half the table (short probe chains), and never past maxKeys. */
  private limitFor(slots: number): number {
    return Math.min(slots >>> 1, this.maxKeys);
  }
}
