/** Types of redis.mjs for the TypeScript that imports it (the bootstrap's system test). */
export type RedisState =
  | 'absent'
  | { loading: true }
  | { dir: string; appendonly: string; fsync: string; policy: string; rewriteMin: string };
export const AOF_REWRITE_MIN_BYTES: number;
export function probeRedis(port?: number): Promise<RedisState>;
export function shutdownRedis(port?: number): Promise<boolean>;
export function fixRedisSettings(
  state: { appendonly: string; fsync: string; policy: string; rewriteMin: string },
  port?: number,
): Promise<string[]>;
export function waitRedisUrl(url: string): Promise<void>;
