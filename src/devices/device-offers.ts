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
  /** A buffer of this many devices is written at once rather than at the next tick. */
  maxPending?: number;
  log?: Logger;
}

/** Devices per script call (see flush): one command's arguments stay small. */
const SLICE = 500;

/**
 * Writes the answers of one workspace's devices: KEYS the devices' keys (one hash tag), ARGV[1] the key
 * lifetime in ms, ARGV[i + 1] the release offered with KEYS[i], or '' for nothing (the key is deleted).
 */
const NOTE_SCRIPT = `
for i, key in ipairs(KEYS) do
  local release = ARGV[i + 1]
  if release == '' then redis.call('UNLINK', key) else redis.call('SET', key, release, 'PX', ARGV[1]) end
end
return #KEYS
`;

type NoteRedis = Redis & { otaNoteOffers(...keysThenArgs: Array<string | number>): Promise<number> };

/**
 * Device offers in Redis: one key per device that was offered a release (`{ws:<id>}:offer:<app>:<device>`,
 * its value the release id), expiring a device window after the offer. "Nothing" is no key: an answer that
 * offers nothing deletes the device's key, so a device id that was never offered anything (an invented one,
 * a throttled one, one refused at the cap) never makes a key. A check only sets an entry of an in-memory
 * buffer (by workspace, app and device, so no string is made per check); `flush()` writes it, run by the
 * distinct-device writer's timer in the same tick as its PFADDs (src/devices/distinct-devices.redis.ts),
 * as one script call per workspace (and 500 devices): each device that checked since the last flush costs
 * one SET or UNLINK inside it, however often it checked.
 */
export class RedisDeviceOffers implements DeviceOffers {
  /** workspace -> app -> device -> release id, or null to delete: each device's last answer since the last flush. */
  private pending = new Map<string, Map<string, Map<string, string | null>>>();
  private pendingCount = 0;
  private flushing: Promise<void> | undefined;
  private readonly redis: NoteRedis;
  private readonly ttlMs: number;
  private readonly maxPending: number;

  constructor(
    redis: Redis,
    private readonly keys: RedisKeys,
    private readonly options: DeviceOffersOptions,
  ) {
    this.ttlMs = options.windowDays * DAY_MS;
    this.maxPending = options.maxPending ?? 50_000;
    if (!('otaNoteOffers' in redis)) redis.defineCommand('otaNoteOffers', { lua: NOTE_SCRIPT });
    this.redis = redis as NoteRedis;
  }

  key(workspaceId: string, appId: string, deviceId: string): string {
    return this.keys.workspace(workspaceId, `offer:${appId}:${deviceId}`);
  }

  note(workspaceId: string, appId: string, deviceId: string, releaseId: string | null): void {
    let apps = this.pending.get(workspaceId);
    if (apps === undefined) {
      apps = new Map();
      this.pending.set(workspaceId, apps);
    }
    let devices = apps.get(appId);
    if (devices === undefined) {
      devices = new Map();
      apps.set(appId, devices);
    }
    const size = devices.size;
    // While Redis is slow or away the buffer may grow to twice its bound; past that, answers of devices not
    // in it go unnoted: a device's earlier offer stands (or none), which only ever credits a failure to a
    // release the service did offer that device.
    if (this.pendingCount >= 2 * this.maxPending && !devices.has(deviceId)) return;
    devices.set(deviceId, releaseId);
    if (devices.size !== size) this.pendingCount += 1;
    if (this.pendingCount >= this.maxPending && !this.flushing) void this.flush();
  }

  async offered(workspaceId: string, appId: string, deviceId: string): Promise<string | null> {
    // An answer of this process not yet written is the newest one.
    const buffered = this.pending.get(workspaceId)?.get(appId)?.get(deviceId);
    if (buffered !== undefined) return buffered;
    return this.redis.get(this.key(workspaceId, appId, deviceId));
  }

  /** Writes the buffered answers; on failure they are dropped (see note()). */
  flush(): Promise<void> {
    if (this.pendingCount === 0) return this.flushing ?? Promise.resolve();
    const batch = this.pending;
    this.pending = new Map();
    this.pendingCount = 0;
    const calls: Array<Promise<number>> = [];
    const ttl = String(this.ttlMs);
    // Issued in one tick: the client pipelines them (per node in a Redis Cluster; a workspace's keys share
    // its hash tag, so each call touches one slot).
    for (const [workspaceId, apps] of batch) {
      let keys: string[] = [];
      let args: string[] = [ttl];
      for (const [appId, devices] of apps) {
        for (const [deviceId, releaseId] of devices) {
          keys.push(this.key(workspaceId, appId, deviceId));
          args.push(releaseId ?? '');
          if (keys.length === SLICE) {
            calls.push(this.redis.otaNoteOffers(keys.length, ...keys, ...args));
            keys = [];
            args = [ttl];
          }
        }
      }
      if (keys.length > 0) calls.push(this.redis.otaNoteOffers(keys.length, ...keys, ...args));
    }
    const run = Promise.all(calls)
      .then(() => undefined)
      .catch((err: unknown) => {
        this.options.log?.warn({ err }, 'device offers not written');
      })
      .finally(() => {
        if (this.flushing === run) this.flushing = undefined;
      });
    this.flushing = run;
    return run;
  }
}
