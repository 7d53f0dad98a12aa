/** Types of cluster.mjs for the TypeScript that imports it (the cluster tests stop and start engines). */
export const CLUSTER_DIR: string;
export const REDIS_CLUSTER_PORTS: number[];
export const CLICKHOUSE_SHARDS: Array<{ http: number; tcp: number; interserver: number }>;
export function shardHome(index: number): string;
export function ensureRedisNode(port: number): Promise<void>;
export function ensureClickhouseShard(index: number, options?: { zookeeper?: boolean }): Promise<void>;
export function ensureClusterEngines(): Promise<Record<string, string>>;
export function stopClusterEngines(): Promise<void>;
