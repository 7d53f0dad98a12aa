import type { Logger } from '../platform/logger.js';
import type { Redis, RedisKeys } from '../platform/redis.js';
import { SeenPairs } from '../platform/seen-pairs.js';
import type { BytesServed, ReleaseRef, ReleaseStats } from '../releases/release-stats.js';
import type { StatsStore } from './stats.store.js';

export type ServedKind = keyof BytesServed;
/** The kinds in the order `read` asks Redis for them. */
const SERVED_KINDS: readonly ServedKind[] = ['full', 'patch', 'per_file'];

export type { BytesServed };

/** Where the device routes count what they hand out (docs/reference/delta-updates.md, "Bytes served"). */
export interface BytesServedRecorder {
  /**
   * Counts `bytes` of `kind` for a release of the app. With a `deviceId` it counts once per device and
   * release (repeated update checks offer the same download again): an answer naming no device (an Expo
   * asset request) counts each time.
   */
  record(appId: string, releaseId: string, kind: ServedKind, bytes: number, deviceId?: string): void;
}

/** Reads the counts for a page of releases. */
export interface BytesServedReader {
  read(releases: readonly ReleaseRef[]): Promise<Map<string, BytesServed>>;
}

/** Both sides, as the stores hold them. */
export interface BytesServedStore extends BytesServedRecorder, BytesServedReader {
  flush(): Promise<void>;
}

/** About how many (release, device) pairs a process remembers as already counted. */
const SEEN_PAIRS = 100_000;

/**
 * The counts in Redis, one hash per app (`<release>:full`, `<release>:patch` -> bytes): a release's fields
 * are made only for releases of the app the routing cache knows, never for a device-sent value. The device
 * routes only add to an in-memory buffer; a timer writes it (HINCRBY per field), so no answer waits on Redis.
 */
export class RedisBytesServed implements BytesServedStore {
  private pending = new Map<string, Map<string, number>>();
  /**
   * Which devices were already counted, per release (release ids are unique across apps): fingerprints in a
   * fixed table, not sets of id strings (src/platform/seen-pairs.ts). Nested sets of the ids were the
   * largest of the check's own entries in the load benchmark's profile (2.4 µs of sampled time a check
   * among everything else, against 0.15-0.3 µs in a loop of their own): up to 100,000 strings for the
   * collectors to trace and lookups that missed the cache. A pair pushed out of the table is counted
   * again, as a memory cleared when full counted it again before.
   */
  private readonly seen = new SeenPairs(SEEN_PAIRS);
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly options: { flushMs?: number; log?: Logger } = {},
  ) {}

  key(appId: string): string {
    // A hash tag per app: on a Redis Cluster each app's counts live on one shard.
    return this.keys.global(`bytes-served:{app:${appId.toLowerCase()}}`);
  }

  record(appId: string, releaseId: string, kind: ServedKind, bytes: number, deviceId?: string): void {
    if (!(bytes > 0)) return;
    if (deviceId !== undefined && !this.seen.firstTime(releaseId, deviceId)) return;
    const key = this.key(appId);
    let fields = this.pending.get(key);
    if (!fields) {
      fields = new Map();
      this.pending.set(key, fields);
    }
    const field = `${releaseId}:${kind}`;
    fields.set(field, (fields.get(field) ?? 0) + bytes);
    this.timer ??= setTimeout(() => void this.flush(), this.options.flushMs ?? 1000).unref();
  }

  /** Writes what is buffered; resolves when every earlier flush has finished too. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = new Map();
    this.flushing = this.flushing.then(async () => {
      if (batch.size === 0) return;
      await Promise.all(
        [...batch].map(([key, fields]) =>
          [...fields]
            .reduce((p, [field, bytes]) => p.hincrby(key, field, bytes), this.redis.pipeline())
            .exec(),
        ),
      ).catch((err: unknown) => this.options.log?.warn({ err }, 'bytes served not recorded'));
    });
    return this.flushing;
  }

  async read(releases: readonly ReleaseRef[]): Promise<Map<string, BytesServed>> {
    const out = new Map<string, BytesServed>();
    const byApp = new Map<string, ReleaseRef[]>();
    for (const r of releases) byApp.set(r.app_id, [...(byApp.get(r.app_id) ?? []), r]);
    await Promise.all(
      [...byApp].map(async ([appId, refs]) => {
        const fields = refs.flatMap((r) => SERVED_KINDS.map((kind) => `${r.id}:${kind}`));
        const values = await this.redis.hmget(this.key(appId), ...fields);
        for (const [i, r] of refs.entries()) {
          const at = (k: number) => Number(values[SERVED_KINDS.length * i + k] ?? 0);
          out.set(r.id, { full: at(0), patch: at(1), per_file: at(2) });
        }
      }),
    );
    return out;
  }
}

/** Release statistics (ClickHouse) with `bytes_served` (Redis) read beside them. */
export function withBytesServed(stats: StatsStore, bytes: BytesServedReader): StatsStore {
  return {
    series: (appId, from, to, interval) => stats.series(appId, from, to, interval),
    latestChecks: (appId, since) => stats.latestChecks(appId, since),
    async statsFor(releases: readonly ReleaseRef[]): Promise<Map<string, ReleaseStats>> {
      const [counts, served] = await Promise.all([stats.statsFor(releases), bytes.read(releases)]);
      for (const [id, s] of counts) {
        const b = served.get(id);
        if (b) s.bytes_served = b;
      }
      return counts;
    },
  };
}
