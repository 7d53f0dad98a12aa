import { REFUSAL_REASONS, type RefusalReason } from '@ota/shared/contracts';
import { clientBucket, type DeviceClient } from '../edge/client-address.js';
import { unavailable } from '../platform/errors.js';
import type { Redis, RedisKeys } from '../platform/redis.js';
import { AdmittedDevices } from './admitted-devices.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/**
 * One atomic step per check of a device this process has not admitted recently. The workspace's set holds
 * device -> last seen (ms), at most `cap` devices seen within the window:
 * - a device seen within the window is counted: refresh its time, admit;
 * - otherwise drop devices not seen within the window; at the cap, refuse (0);
 * - a device new to the set is then limited per client: the hour's hash counts the devices each client
 *   added; at the limit, refuse (2), else count it for the client, add the device and admit (1).
 * Refused devices are not added ("no update"). The set expires a window after its last write and the
 * hash at the end of its hour, so an idle workspace leaves nothing behind. The hash gains a field only
 * when a device is added, so it never holds more clients than the cap has places.
 * KEYS[1] set, KEYS[2] the hour's per-client hash; ARGV: device id, now ms, window start ms, cap,
 * window ms, client, new devices per client and hour (0 = no limit), ms until the hash may go.
 */
const ADMIT_SCRIPT = `
local seen = redis.call('ZSCORE', KEYS[1], ARGV[1])
if seen and tonumber(seen) >= tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
  return 1
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[3])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then
  redis.call('PFADD', KEYS[3], ARGV[1])
  redis.call('PEXPIRE', KEYS[3], ARGV[9])
  return 0
end
local limit = tonumber(ARGV[7])
if limit > 0 then
  if tonumber(redis.call('HGET', KEYS[2], ARGV[6]) or '0') >= limit then
    redis.call('PFADD', KEYS[4], ARGV[1])
    redis.call('PEXPIRE', KEYS[4], ARGV[9])
    return 2
  end
  redis.call('HINCRBY', KEYS[2], ARGV[6], 1)
  redis.call('PEXPIRE', KEYS[2], ARGV[8])
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
`;

type AdmitRedis = Redis & {
  otaAdmitDevice(
    setKey: string,
    clientsKey: string,
    refusedByCapKey: string,
    refusedByLimitKey: string,
    device: string,
    now: number,
    from: number,
    cap: number,
    windowMs: number,
    client: string,
    perClient: number,
    clientsTtlMs: number,
    refusalsTtlMs: number,
  ): Promise<number>;
};

/** The cap's verdict on a device: admitted (served), or refused and why. */
export type Admission = 'admitted' | RefusalReason;

/** Distinct devices refused in the last 24 hours, by reason. */
export type RefusedDevices = Record<RefusalReason, number>;

/** Refusal counts cover the last 24 clock hours; each hour's count lives a day and an hour. */
const REFUSAL_HOURS = 24;

export interface DeviceCapOptions {
  windowDays: number;
  /** Devices new to a capped workspace that one client address may add per clock hour; 0 = no limit. */
  newPerAddressPerHour?: number;
  /** Most (workspace, device) pairs remembered as admitted by this process. */
  cacheCapacity?: number;
  /** How long a remembered admission skips Redis; kept well inside the window. */
  cacheTtlMs?: number;
  now?: () => number;
}

export interface CountedDevice {
  device_id: string;
  /** Epoch milliseconds of its last check. */
  lastSeen: number;
}

/**
 * Exact distinct-device caps over a rolling window (plans.ts `deviceCap`). The 100th distinct device of a
 * hobby workspace is admitted, the 101st refused, and a counted device keeps being admitted; concurrent
 * checks from many API processes agree because the decision is one Lua script on the workspace's set. The
 * per-address limit on new devices is decided in that same script, so it costs an admitted device nothing.
 */
export class DeviceCapGate {
  private readonly redis: AdmitRedis;
  private readonly admitted: AdmittedDevices;
  private readonly windowMs: number;
  private readonly perClient: number;
  private readonly now: () => number;

  constructor(
    redis: Redis,
    private readonly keys: RedisKeys,
    options: DeviceCapOptions,
  ) {
    this.windowMs = options.windowDays * DAY_MS;
    this.perClient = Math.max(0, options.newPerAddressPerHour ?? 0);
    this.now = options.now ?? Date.now;
    const ttl = options.cacheTtlMs ?? Math.min(HOUR_MS, Math.floor(this.windowMs / 10));
    this.admitted = new AdmittedDevices(options.cacheCapacity ?? 100_000, ttl, this.now);
    if (!('otaAdmitDevice' in redis)) {
      redis.defineCommand('otaAdmitDevice', { numberOfKeys: 4, lua: ADMIT_SCRIPT });
    }
    this.redis = redis as AdmitRedis;
  }

  /**
   * Whether the device may be served, and if not why. `cap` null means unlimited: nothing is counted. The
   * cap comes from the workspace's current plan, so an upgrade applies to the very next check. `client`
   * (the request) is asked for its address only for a device new to this process.
   */
  admit(
    workspaceId: string,
    deviceId: string,
    cap: number | null,
    client: DeviceClient,
  ): Admission | Promise<Admission> {
    if (cap === null) return 'admitted';
    if (this.admitted.has(workspaceId, deviceId)) return 'admitted';
    return this.admitRemote(workspaceId, deviceId, cap, client.ip);
  }

  /** Distinct devices refused over the last 24 clock hours (this one included), by reason. */
  async refusedDevices(workspaceId: string): Promise<RefusedDevices> {
    const hour = Math.floor(this.now() / HOUR_MS);
    const hours = Array.from({ length: REFUSAL_HOURS }, (_, i) => hour - i);
    const [cap, limit] = await Promise.all(
      REFUSAL_REASONS.map((reason) =>
        this.redis.pfcount(...hours.map((h) => this.refusedKey(workspaceId, reason, h))),
      ),
    );
    return { device_cap: cap ?? 0, new_device_limit: limit ?? 0 };
  }

  /** Devices counted against the cap now: seen within the window, at most the cap. */
  async counted(workspaceId: string): Promise<number> {
    return this.redis.zcount(this.setKey(workspaceId), this.now() - this.windowMs, '+inf');
  }

  /** A page of the counted devices, most recently seen first. */
  async list(workspaceId: string, offset: number, limit: number): Promise<CountedDevice[]> {
    const flat = await this.redis.zrevrangebyscore(
      this.setKey(workspaceId),
      '+inf',
      this.now() - this.windowMs,
      'WITHSCORES',
      'LIMIT',
      offset,
      limit,
    );
    const page: CountedDevice[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      page.push({ device_id: flat[i]!, lastSeen: Number(flat[i + 1]) });
    }
    return page;
  }

  /** When a counted device last checked (epoch ms), or null when it is not counted. */
  async lastSeen(workspaceId: string, deviceId: string): Promise<number | null> {
    const score = await this.redis.zscore(this.setKey(workspaceId), deviceId);
    if (score === null) return null;
    const at = Number(score);
    return at >= this.now() - this.windowMs ? at : null;
  }

  /** Takes a device out of the workspace's set; true when it was there. Other processes: see forget(). */
  async remove(workspaceId: string, deviceId: string): Promise<boolean> {
    return (await this.redis.zrem(this.setKey(workspaceId), deviceId)) > 0;
  }

  /** Drops this process's memory of admitting the device, so its next check is decided by the script. */
  forget(workspaceId: string, deviceId: string): void {
    this.admitted.delete(workspaceId, deviceId);
  }

  setKey(workspaceId: string): string {
    return this.keys.workspace(workspaceId, 'devices:capped');
  }

  /** The HyperLogLog of devices refused for `reason` during clock hour `hour` (epoch hours). */
  refusedKey(workspaceId: string, reason: RefusalReason, hour: number): string {
    return this.keys.workspace(workspaceId, `devices:refused:${reason}:${hour}`);
  }

  /** The hash of devices each client added to the workspace's set during the clock hour of `at`. */
  clientsKey(workspaceId: string, at: number): string {
    return this.keys.workspace(workspaceId, `devices:new-by-client:${Math.floor(at / HOUR_MS)}`);
  }

  private async admitRemote(
    workspaceId: string,
    deviceId: string,
    cap: number,
    address: string | undefined,
  ): Promise<Admission> {
    const now = this.now();
    const hour = Math.floor(now / HOUR_MS);
    const hourEnds = (hour + 1) * HOUR_MS;
    let admitted: number;
    try {
      admitted = await this.redis.otaAdmitDevice(
        this.setKey(workspaceId),
        this.clientsKey(workspaceId, now),
        this.refusedKey(workspaceId, 'device_cap', hour),
        this.refusedKey(workspaceId, 'new_device_limit', hour),
        deviceId,
        now,
        now - this.windowMs,
        cap,
        this.windowMs,
        clientBucket(address),
        this.perClient,
        // A minute past the hour's end, so a clock slightly behind still finds the hour's counts.
        hourEnds - now + 60_000,
        hourEnds - now + REFUSAL_HOURS * HOUR_MS,
      );
    } catch {
      // Neither serving an uncounted device nor a silent "no update" is right: the device retries later.
      throw unavailable('Device counting is unavailable; retry shortly.', 'dependency_unavailable');
    }
    if (admitted === 0) return 'device_cap';
    if (admitted === 2) return 'new_device_limit';
    this.admitted.add(workspaceId, deviceId);
    return 'admitted';
  }
}
