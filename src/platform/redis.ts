import { createHash } from 'node:crypto';
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
function clusterClient(url: string, options: RedisOptions, cluster: Partial<ClusterOptions> = {}): Cluster {
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
    ...cluster,
  };
  return new Cluster([{ host: u.hostname, port: Number(u.port) || 6379 }], clusterOptions);
}

/**
 * A general client. Commands fail fast while Redis is away (so the API answers 503 rather than hanging);
 * BullMQ workers get their own connections with maxRetriesPerRequest null, as BullMQ requires.
 */
export function createRedis(
  target: RedisTarget | string,
  options: RedisOptions = {},
  clusterOptions: Partial<ClusterOptions> = {},
): Redis {
  const { url, cluster } = targetOf(target);
  const merged: RedisOptions = {
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    lazyConnect: false,
    ...options,
  };
  return cluster ? clusterClient(url, merged, clusterOptions) : new Standalone(url, merged);
}

/**
 * A worker's connection (BullMQ, stream reads). On a Redis Cluster a command whose node died is sent again
 * while a replica takes over; ioredis gives up after 16 tries 100 ms apart (1.6 s, shorter than any
 * failover) with "Too many Cluster redirections", which BullMQ does not take for a connection error: a job
 * finished in that window was left active until its lock ran out. Tries 500 ms apart for about 30 s cover
 * a failover with the default cluster-node-timeout of 15 s.
 */
export function createBlockingRedis(target: RedisTarget | string): Redis {
  return createRedis(
    target,
    { maxRetriesPerRequest: null, enableReadyCheck: true },
    {
      retryDelayOnFailover: 500,
      retryDelayOnClusterDown: 500,
      retryDelayOnTryAgain: 500,
      maxRedirections: 60,
    },
  );
}

/** The masters of a cluster, or the one server: for commands that act on one node's keyspace (SCAN). */
export function keyspaceNodes(redis: Redis): Standalone[] {
  return redis instanceof Cluster ? redis.nodes('master') : [redis];
}

/** The most ingest streams a deployment may have (INGEST_STREAMS). */
export const MAX_INGEST_STREAMS = 64;

/**
 * Which of `streams` ingest streams an app's events go to: the first four bytes of sha256(app id), modulo
 * the count. Stable across processes and restarts, so an app's batches stay in one stream, in order.
 */
export function ingestStreamOf(appId: string, streams: number): number {
  if (streams <= 1) return 0;
  return createHash('sha256').update(appId.toLowerCase()).digest().readUInt32BE(0) % streams;
}

const SLOTS = 16384;

/** The Redis Cluster hash slot of a hash tag: CRC16 (XMODEM) of it, modulo 16,384. */
export function hashSlot(tag: string): number {
  let crc = 0;
  for (const byte of Buffer.from(tag)) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % SLOTS;
}

/**
 * Where in the slot space ingest stream `index` should land, as a fraction: stream 0 where {ingest} is,
 * streams 1-5 a third, two thirds, a sixth, a half and five sixths further on, later ones by the golden
 * ratio. With masters holding equal slot ranges, as `redis-cli --cluster create` makes them, n streams on n
 * masters are one on each for n = 2, 3, 4 and 6 (5 puts two on one master).
 */
function streamTarget(index: number): number {
  const first = hashSlot('ingest') / SLOTS;
  const offsets = [0, 1 / 3, 2 / 3, 1 / 6, 1 / 2, 5 / 6];
  const offset = index < offsets.length ? offsets[index]! : index * 0.6180339887;
  return (first + offset) % 1;
}

const streamTags = new Map<number, string>();

/**
 * The hash tag of ingest stream `index`: `ingest` for stream 0 (the single stream's tag from before there
 * were several), `ingest:<index>:<n>` for the others, n the first number that puts the tag within 1/48 of
 * the slot space of streamTarget. Fixed by the index alone, so every process names the same keys.
 */
export function ingestStreamTag(index: number): string {
  if (index === 0) return 'ingest';
  const known = streamTags.get(index);
  if (known) return known;
  const target = streamTarget(index) * SLOTS;
  for (let n = 0; ; n++) {
    const tag = `ingest:${index}:${n}`;
    const distance = Math.abs(hashSlot(tag) - target);
    if (Math.min(distance, SLOTS - distance) <= SLOTS / 48) {
      streamTags.set(index, tag);
      return tag;
    }
  }
}

/**
 * Key names. Every key starts with the deployment prefix and carries a {hash tag} naming the shard it
 * lives on in a Redis Cluster: each workspace's keys together, each ingest stream's keys (the stream, its
 * dead letters and the failure counters of its apps, which its acknowledgement transaction updates)
 * together, and every BullMQ queue together, so each multi-key command, transaction and script touches one
 * shard.
 *
 * `ingestStreams` (INGEST_STREAMS) is how many streams device events are spread over, by app, each with
 * the tag of ingestStreamTag.
 */
export class RedisKeys {
  constructor(
    readonly prefix: string,
    readonly ingestStreams = 1,
  ) {}
  workspace(workspaceId: string, suffix: string): string {
    return `${this.prefix}:{ws:${workspaceId}}:${suffix}`;
  }
  /** A key of ingest stream 0 (the only one when INGEST_STREAMS is 1). */
  ingest(suffix: string): string {
    return this.ingestShard(0, suffix);
  }
  /** A key beside ingest stream `index`: the stream itself, its dead letters, their counts. */
  ingestShard(index: number, suffix: string): string {
    return `${this.prefix}:{${ingestStreamTag(index)}}:${suffix}`;
  }
  /** The stream an app's events go to now. */
  streamOfApp(appId: string): number {
    return ingestStreamOf(appId, this.ingestStreams);
  }
  /** A key of an app beside the stream its events go to now (its failure counters). */
  ingestApp(appId: string, suffix: string): string {
    return this.ingestShard(this.streamOfApp(appId), suffix);
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
