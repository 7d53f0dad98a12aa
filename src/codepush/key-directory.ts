import { ownString } from '../platform/own-string.js';

export interface KeyDirectoryOptions {
  /** How long "no such key" is remembered: short, so a key made a moment ago works within seconds. */
  negativeTtlMs?: number;
  /** Known keys held (the oldest goes first beyond it). */
  maxKnown?: number;
  /** Unknown keys held: kept apart, so a flood of made-up keys never pushes out the real ones. */
  maxUnknown?: number;
  now?: () => number;
}

/**
 * Deployment key -> app id, in process. A key never changes app, so a known key is remembered until
 * evicted; whether it still serves (or was deleted) is read from the app's routing state, which routing
 * invalidations keep current. Unknown keys are remembered briefly in a bounded map of their own, and
 * concurrent misses for one key share one query, so a device hammering a wrong key costs one query per
 * few seconds and made-up keys cannot evict real ones.
 */
export class DeploymentKeyDirectory {
  private readonly known = new Map<string, string>();
  /** Unknown key -> when the answer expires (ms). */
  private readonly unknown = new Map<string, number>();
  private readonly loading = new Map<string, Promise<string | null>>();
  private readonly negativeTtlMs: number;
  private readonly maxKnown: number;
  private readonly maxUnknown: number;
  private readonly now: () => number;

  constructor(
    private readonly source: { appOf(key: string): Promise<string | null> },
    options: KeyDirectoryOptions = {},
  ) {
    this.negativeTtlMs = options.negativeTtlMs ?? 2000;
    this.maxKnown = options.maxKnown ?? 100_000;
    this.maxUnknown = options.maxUnknown ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** The cached answer: an app id, null for an unknown key, or undefined on a miss (call appOf). */
  peek(key: string): string | null | undefined {
    const appId = this.known.get(key);
    if (appId !== undefined) return appId;
    const expires = this.unknown.get(key);
    if (expires === undefined) return undefined;
    if (expires > this.now()) return null;
    this.unknown.delete(key);
    return undefined;
  }

  appOf(key: string): Promise<string | null> {
    const hit = this.peek(key);
    if (hit !== undefined) return Promise.resolve(hit);
    let pending = this.loading.get(key);
    if (!pending) {
      pending = this.source
        .appOf(key)
        .then((appId) => {
          this.remember(key, appId);
          return appId;
        })
        .finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }

  get size(): { known: number; unknown: number } {
    return { known: this.known.size, unknown: this.unknown.size };
  }

  private remember(requested: string, appId: string | null): void {
    // A copy: the key read from a query string is a slice of the request's whole URL, which V8 would keep
    // alive with it (10,000 made-up keys padded to 8 KB: 80 MB).
    const key = ownString(requested);
    if (appId === null) {
      this.unknown.delete(key);
      evictOldest(this.unknown, this.maxUnknown);
      this.unknown.set(key, this.now() + this.negativeTtlMs);
      return;
    }
    this.unknown.delete(key);
    this.known.delete(key);
    evictOldest(this.known, this.maxKnown);
    this.known.set(key, appId);
  }
}

// Maps iterate in insertion order: the first key is the one remembered longest ago.
function evictOldest(map: Map<string, unknown>, max: number): void {
  while (map.size >= max) {
    const oldest = map.keys().next().value;
    if (oldest === undefined) return;
    map.delete(oldest);
  }
}
