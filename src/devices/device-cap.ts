import { unavailable } from '../platform/errors.js';
import type { Redis, RedisKeys } from '../platform/redis.js';
import { AdmittedDevices } from './admitted-devices.js';

const DAY_MS = 86_400_000;

/**
 * One atomic step per check of a device this process has not admitted recently. The workspace's set holds
 * device -> last seen (ms), at most `cap` devices seen within the window:
 * - a device seen within the window is counted: refresh its time, admit;
 * - otherwise drop devices not seen within the window, then admit and add it if the set is below the cap;
 * - else refuse (the answer is "no update"; the device is not added).
 * The set expires a window after its last write, so an idle workspace leaves nothing behind.
 * KEYS[1] set; ARGV: device id, now ms, window start ms, cap, window ms.
 */
const ADMIT_SCRIPT = `
local seen = redis.call('ZSCORE', KEYS[1], ARGV[1])
if seen and tonumber(seen) >= tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
  return 1
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[3])
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[4]) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
  return 1
end
return 0
`;

type AdmitRedis = Redis & {
  otaAdmitDevice(
    key: string,
    device: string,
    now: number,
    from: number,
    cap: number,
    windowMs: number,
  ): Promise<number>;
};

export interface DeviceCapOptions {
  windowDays: number;
  /** Most (workspace, device) pairs remembered as admitted by this process. */
  cacheCapacity?: number;
  /** How long a remembered admission skips Redis; kept well inside the window. */
  cacheTtlMs?: number;
  now?: () => number;
}

/**
 * Exact distinct-device caps over a rolling window (plans.ts `deviceCap`). The 100th distinct device of a
 * hobby workspace is admitted, the 101st refused, and a counted device keeps being admitted; concurrent
 * checks from many API processes agree because the decision is one Lua script on the workspace's set.
 */
export class DeviceCapGate {
  private readonly redis: AdmitRedis;
  private readonly admitted: AdmittedDevices;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(
    redis: Redis,
    private readonly keys: RedisKeys,
    options: DeviceCapOptions,
  ) {
    this.windowMs = options.windowDays * DAY_MS;
    this.now = options.now ?? Date.now;
    const ttl = options.cacheTtlMs ?? Math.min(3_600_000, Math.floor(this.windowMs / 10));
    this.admitted = new AdmittedDevices(options.cacheCapacity ?? 100_000, ttl, this.now);
    if (!('otaAdmitDevice' in redis)) {
      redis.defineCommand('otaAdmitDevice', { numberOfKeys: 1, lua: ADMIT_SCRIPT });
    }
    this.redis = redis as AdmitRedis;
  }

  /**
   * True when the device may be served. `cap` null means unlimited: nothing is counted. The cap comes
   * from the workspace's current plan, so an upgrade applies to the very next check.
   */
  admit(workspaceId: string, deviceId: string, cap: number | null): boolean | Promise<boolean> {
    if (cap === null) return true;
    if (this.admitted.has(workspaceId, deviceId)) return true;
    return this.admitRemote(workspaceId, deviceId, cap);
  }

  /** Devices counted against the cap now: seen within the window, at most the cap. */
  async counted(workspaceId: string): Promise<number> {
    return this.redis.zcount(this.setKey(workspaceId), this.now() - this.windowMs, '+inf');
  }

  setKey(workspaceId: string): string {
    return this.keys.workspace(workspaceId, 'devices:capped');
  }

  private async admitRemote(workspaceId: string, deviceId: string, cap: number): Promise<boolean> {
    const now = this.now();
    let admitted: number;
    try {
      admitted = await this.redis.otaAdmitDevice(
        this.setKey(workspaceId),
        deviceId,
        now,
        now - this.windowMs,
        cap,
        this.windowMs,
      );
    } catch {
      // Neither serving an uncounted device nor a silent "no update" is right: the device retries later.
      throw unavailable('Device counting is unavailable; retry shortly.', 'dependency_unavailable');
    }
    if (admitted !== 1) return false;
    this.admitted.add(workspaceId, deviceId);
    return true;
  }
}
