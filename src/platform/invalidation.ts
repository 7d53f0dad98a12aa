import type { Redis, RedisKeys } from './redis.js';

/**
 * Routing-state invalidation. Any change to an app's releases, fingerprints or its workspace's plan is
 * published here after the change commits; every API process drops the cached state it holds for that
 * app (or for every app of the workspace) so update checks see the change within a second.
 */
export interface Invalidation {
  appId?: string;
  workspaceId?: string;
  /** A device released from a workspace's device-cap set: processes forget having admitted it. */
  releasedDevice?: { workspaceId: string; deviceId: string };
}

export function invalidationChannel(keys: RedisKeys): string {
  return keys.global('routing:invalidate');
}

/** Best effort: a lost message is covered by the cache's short TTL. */
export async function publishInvalidation(
  redis: Redis,
  keys: RedisKeys,
  message: Invalidation,
): Promise<void> {
  await redis.publish(invalidationChannel(keys), JSON.stringify(message)).catch(() => 0);
}
