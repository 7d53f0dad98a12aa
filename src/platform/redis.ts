import { Redis, type RedisOptions } from 'ioredis';

export type { Redis };

/**
 * A general client. Commands fail fast while Redis is away (so the API answers 503 rather than hanging);
 * BullMQ workers get their own connections with maxRetriesPerRequest null, as BullMQ requires.
 */
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    lazyConnect: false,
    ...options,
  });
}

export function createBlockingRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true });
}

/**
 * Key names. Every key starts with the deployment prefix; per-workspace and per-app keys carry a
 * {hash tag} so a Redis Cluster keeps each workspace's (or app's) keys on one shard.
 */
export class RedisKeys {
  constructor(readonly prefix: string) {}
  workspace(workspaceId: string, suffix: string): string {
    return `${this.prefix}:{ws:${workspaceId}}:${suffix}`;
  }
  app(appId: string, suffix: string): string {
    return `${this.prefix}:{app:${appId}}:${suffix}`;
  }
  global(suffix: string): string {
    return `${this.prefix}:${suffix}`;
  }
  /** BullMQ prefix, so queues of different deployments (and test files) never meet. */
  get queuePrefix(): string {
    return `${this.prefix}:bull`;
  }
}
