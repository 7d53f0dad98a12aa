import type { Logger } from '../platform/logger.js';
import type { Redis, RedisKeys } from '../platform/redis.js';
import type { AppRoute } from '../routing/routing.types.js';
import type { OverrideReason } from './device-override.js';

/** The last check of a pinned device: whether its pinned release was served, and what the device sent. */
export interface OverrideCheck {
  /** The release it was pinned to then (a check noted before the pin changed is not about this pin). */
  module_id: string;
  served: boolean;
  reason: OverrideReason | null;
  fingerprint: string | null;
  app_version: string | null;
  /**
   * When it was noted (epoch ms): a process notes a device's outcome when it changes, and once more after
   * it reloads the app's routing state.
   */
  at: number;
}

/**
 * What the override listing says about pinned devices that cannot be served their release: the outcome
 * of each pinned device's last check, in one Redis hash per app (fields: device ids that have an override,
 * so never an arbitrary string). Only a device with a release override is noted, and only when its outcome
 * differs from what this process noted on the same routing-cache entry: a device without an override costs
 * nothing, a pinned one a write when its outcome changes (or the app's state is reloaded).
 */
export class OverrideChecks {
  private readonly noted = new WeakMap<AppRoute, Map<string, string>>();

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  key(workspaceId: string, appId: string): string {
    return this.keys.workspace(workspaceId, `override-checks:${appId}`);
  }

  /** Best effort and off the answer's path: a lost note only leaves the listing a check behind. */
  note(route: AppRoute, deviceId: string, check: Omit<OverrideCheck, 'at'>): void {
    let seen = this.noted.get(route);
    if (!seen) {
      seen = new Map();
      this.noted.set(route, seen);
    }
    const signature = `${check.module_id}|${check.served}|${check.reason}|${check.fingerprint}|${check.app_version}`;
    if (seen.get(deviceId) === signature) return;
    seen.set(deviceId, signature);
    const value = JSON.stringify({ ...check, at: this.now() });
    this.redis.hset(this.key(route.workspaceId, route.appId), deviceId, value).catch((err: unknown) => {
      seen.delete(deviceId);
      this.log.warn({ err, appId: route.appId }, 'override check not noted');
    });
  }

  /** The last noted check of each pinned device of the app. */
  async read(workspaceId: string, appId: string): Promise<Map<string, OverrideCheck>> {
    const all = await this.redis.hgetall(this.key(workspaceId, appId));
    const out = new Map<string, OverrideCheck>();
    for (const [device, raw] of Object.entries(all)) {
      try {
        out.set(device, JSON.parse(raw) as OverrideCheck);
      } catch {
        // A value this code did not write: treated as no check.
      }
    }
    return out;
  }

  /** Forgets a device's notes when its override is removed. */
  async forget(workspaceId: string, appId: string, deviceId: string): Promise<void> {
    await this.redis.hdel(this.key(workspaceId, appId), deviceId);
  }
}
