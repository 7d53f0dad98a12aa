export interface KeyDirectoryOptions {
  /** How long "no such key" is remembered: short, so a key made a moment ago works within seconds. */
  negativeTtlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

interface Entry {
  appId: string | null;
  /** Known keys never expire (a key never moves to another app); unknown ones do. */
  expires: number;
}

/**
 * Deployment key -> app id, in process. A key never changes app, so a known key is remembered until
 * evicted; whether it still serves (or was deleted) is read from the app's routing state, which routing
 * invalidations keep current. Unknown keys are remembered briefly, bounded in number, and concurrent
 * misses for one key share one query, so a device hammering a wrong key costs one query per few seconds.
 */
export class DeploymentKeyDirectory {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<string | null>>();
  private readonly negativeTtlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly source: { appOf(key: string): Promise<string | null> },
    options: KeyDirectoryOptions = {},
  ) {
    this.negativeTtlMs = options.negativeTtlMs ?? 2000;
    this.maxEntries = options.maxEntries ?? 100_000;
    this.now = options.now ?? Date.now;
  }

  /** The cached answer: an app id, null for an unknown key, or undefined on a miss (call appOf). */
  peek(key: string): string | null | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.appId === null && entry.expires <= this.now()) return undefined;
    return entry.appId;
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

  /** Forgets a key (made or deleted in this process), so the next lookup asks the database. */
  forget(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  private remember(key: string, appId: string | null): void {
    this.entries.delete(key);
    while (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: the first key is the one remembered longest ago.
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    this.entries.set(key, { appId, expires: appId === null ? this.now() + this.negativeTtlMs : Infinity });
  }
}
