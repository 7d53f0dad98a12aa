import type { Logger } from '../platform/logger.js';
import type { Redis, RedisKeys } from '../platform/redis.js';

const DAY_MS = 86_400_000;

/**
 * What the service last offered each device: a release id, or nothing (an answer that offered no release:
 * up to date, refused at the cap, 429). A download-side failure report (a failed download, checksum or
 * decryption) is credited to that release, whatever version the report names: clients name the bundle they
 * run in several of them (API.md, "Client versions").
 */
export interface DeviceOffers {
  /** Notes the answer a device got; `releaseId` null when it offered nothing. Off the answer's path. */
  note(workspaceId: string, appId: string, deviceId: string, releaseId: string | null): void;
  /** The release last offered the device, or null when the last answer offered nothing (or none is known). */
  offered(workspaceId: string, appId: string, deviceId: string): Promise<string | null>;
}

export interface DeviceOffersOptions {
  windowDays: number;
  /** A buffer this large is written at once rather than at the next tick. */
  maxPending?: number;
  log?: Logger;
}

/**
 * Device offers in Redis: one key per device that was offered a release (`{ws:<id>}:offer:<app>:<device>`,
 * its value the release id), expiring a device window after the offer. "Nothing" is no key: an answer that
 * offers nothing deletes the device's key, so a device id that was never offered anything (an invented one,
 * a throttled one, one refused at the cap) never makes a key. A check only sets an entry of an in-memory
 * buffer; `flush()` writes it, run by the distinct-device writer's timer in the same tick as its PFADDs
 * (src/devices/distinct-devices.redis.ts), so the writes share that round trip: one SET or UNLINK per
 * device that checked since the last flush, however often it checked.
 */
export class RedisDeviceOffers implements DeviceOffers {
  /** Redis key -> release id, or null to delete: the last answer of each device since the last flush. */
  private pending = new Map<string, string | null>();
  private flushing: Promise<void> | undefined;
  private readonly ttlMs: number;
  private readonly maxPending: number;

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly options: DeviceOffersOptions,
  ) {
    this.ttlMs = options.windowDays * DAY_MS;
    this.maxPending = options.maxPending ?? 50_000;
  }

  key(workspaceId: string, appId: string, deviceId: string): string {
    return this.keys.workspace(workspaceId, `offer:${appId}:${deviceId}`);
  }

  note(workspaceId: string, appId: string, deviceId: string, releaseId: string | null): void {
    const key = this.key(workspaceId, appId, deviceId);
    // While Redis is slow or away the buffer may grow to twice its bound; past that, answers go unnoted:
    // a device's earlier offer stands (or none), which only ever credits a failure to a release the
    // service did offer that device.
    if (this.pending.size >= 2 * this.maxPending && !this.pending.has(key)) return;
    this.pending.set(key, releaseId);
    if (this.pending.size >= this.maxPending && !this.flushing) void this.flush();
  }

  async offered(workspaceId: string, appId: string, deviceId: string): Promise<string | null> {
    const key = this.key(workspaceId, appId, deviceId);
    // An answer of this process not yet written is the newest one.
    const buffered = this.pending.get(key);
    if (buffered !== undefined) return buffered;
    return this.redis.get(key);
  }

  /** Writes the buffered answers; on failure they are dropped (see note()). */
  flush(): Promise<void> {
    if (this.pending.size === 0) return this.flushing ?? Promise.resolve();
    const batch = this.pending;
    this.pending = new Map();
    const run = Promise.all(
      // Issued in one tick: the client pipelines them (per node in a Redis Cluster).
      [...batch].map(([key, releaseId]) =>
        releaseId === null ? this.redis.unlink(key) : this.redis.set(key, releaseId, 'PX', this.ttlMs),
      ),
    )
      .then(() => undefined)
      .catch((err: unknown) => {
        this.options.log?.warn({ err, devices: batch.size }, 'device offers not written');
      })
      .finally(() => {
        if (this.flushing === run) this.flushing = undefined;
      });
    this.flushing = run;
    return run;
  }
}
