import { type ClickHouseClient, ClickHouseLogLevel, createClient } from '@clickhouse/client';

/** The engines `npm run test:cluster` started (scripts/services/cluster.mjs), from its environment. */
export function clusterEngines() {
  const redisUrl = process.env.OTA_CLUSTER_REDIS_URL;
  const clickhouseUrls = (process.env.OTA_CLUSTER_CLICKHOUSE_URLS ?? '').split(',').filter(Boolean);
  const clickhouseCluster = process.env.OTA_CLUSTER_CLICKHOUSE_NAME;
  if (!redisUrl || clickhouseUrls.length < 2 || !clickhouseCluster)
    throw new Error('run these tests with `npm run test:cluster` (it starts the cluster engines)');
  return { redisUrl, clickhouseUrls, clickhouseCluster };
}

/** The environment of a service on the cluster: Redis Cluster, ClickHouse cluster, three ingest streams. */
export function clusterEnv(): Record<string, string> {
  const e = clusterEngines();
  return {
    REDIS_URL: e.redisUrl,
    REDIS_CLUSTER: 'true',
    CLICKHOUSE_URL: e.clickhouseUrls[0]!,
    CLICKHOUSE_CLUSTER: e.clickhouseCluster,
    INGEST_STREAMS: '3',
  };
}

/** A client of one shard's server, in `database`. */
export function shardClient(index: number, database: string): ClickHouseClient {
  return createClient({
    url: clusterEngines().clickhouseUrls[index]!,
    database,
    log: { level: ClickHouseLogLevel.OFF },
  });
}

export async function rows<T>(ch: ClickHouseClient, query: string): Promise<T[]> {
  const rs = await ch.query({ query, format: 'JSONEachRow' });
  return rs.json<T>();
}
