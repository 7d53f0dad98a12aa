import { Cluster, type ClusterOptions, type RedisOptions, Redis as Standalone } from 'ioredis';

/** A Redis connection: one server, or a Redis Cluster (REDIS_CLUSTER=true). Both speak the same commands. */
export type Redis = Standalone | Cluster;

/** Where Redis is: REDIS_URL, and whether it is the seed node of a Redis Cluster. */
export interface RedisTarget {
  url: string;
  cluster: boolean;
}

function targetOf(target: RedisTarget | string): RedisTarget {
  return typeof target === 'string' ? { url: target, cluster: false } : target;
}

/**
 * A Cluster client from the seed node's URL: the other nodes are discovered from it. Credentials and TLS
 * (rediss://) apply to every node; reads go to masters, so a read follows the write before it.
 */
function clusterClient(url: string, options: RedisOptions): Cluster {
  const u = new URL(url);
  const redisOptions: RedisOptions = {
    ...options,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
  };
  const clusterOptions: ClusterOptions = {
    redisOptions,
    scaleReads: 'master',
    // Commands issued in one tick are grouped per node, so per-key commands of many shards cost one
    // round trip per node rather than one each.
    enableAutoPipelining: true,
    enableOfflineQueue: options.enableOfflineQueue ?? true,
  };
  return new Cluster([{ host: u.hostname, port: Number(u.port) || 6379 }], clusterOptions);
}

/**
 * A general client. Commands fail fast while Redis is away (so the API answers 503 rather than hanging);
 * BullMQ workers get their own connections with maxRetriesPerRequest null, as BullMQ requires.
 */
export function createRedis(target: RedisTarget | string, options: RedisOptions = {}): Redis {
  const { url, cluster } = targetOf(target);
  const merged: RedisOptions = {
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    lazyConnect: false,
    ...options,
  };
  return cluster ? clusterClient(url, merged) : new Standalone(url, merged);
}

export function createBlockingRedis(target: RedisTarget | string): Redis {
  return createRedis(target, { maxRetriesPerRequest: null, enableReadyCheck: true });
}

/** The masters of a cluster, or the one server: for commands that act on one node's keyspace (SCAN). */
export function keyspaceNodes(redis: Redis): Standalone[] {
  return redis instanceof Cluster ? redis.nodes('master') : [redis];
}

/**
 * Key names. Every key starts with the deployment prefix and carries a {hash tag} naming the shard it
 * lives on in a Redis Cluster: each workspace's keys together, the ingest keys (event stream and the
 * failure counters its acknowledgement transaction updates) together, and every BullMQ queue together,
 * so each multi-key command, transaction and script touches one shard.
 */
export class RedisKeys {
  constructor(readonly prefix: string) {}
  workspace(workspaceId: string, suffix: string): string {
    return `${this.prefix}:{ws:${workspaceId}}:${suffix}`;
  }
  /** The device event stream, its dead letters and the per-minute failure counters. */
  ingest(suffix: string): string {
    return `${this.prefix}:{ingest}:${suffix}`;
  }
  /** Single keys (rate-limit counters) and pub/sub channels, which need no shard of their own. */
  global(suffix: string): string {
    return `${this.prefix}:${suffix}`;
  }
  /** BullMQ prefix, so queues of different deployments (and test files) never meet. */
  get queuePrefix(): string {
    return `${this.prefix}:{bull}`;
  }
}
