import type { Redis } from './redis.js';

/** Counts one event; the first one of a window starts the window (atomic, so a count never outlives it). */
const COUNT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n
`;

type CountingRedis = Redis & { otaWindowCount(key: string, windowMs: number): Promise<number> };

/** Counts one event of a key and answers the key's count so far in its window. */
export type WindowCount = (key: string, windowMs: number) => Promise<number>;

/**
 * Counts of events per key over a fixed window, kept in Redis so every API copy shares them (the sign-in
 * and password-reset limits). One key per call: on a Redis Cluster two keys may live on different nodes.
 */
export function windowCount(redis: Redis): WindowCount {
  if (!('otaWindowCount' in redis)) {
    redis.defineCommand('otaWindowCount', { numberOfKeys: 1, lua: COUNT_SCRIPT });
  }
  const counting = redis as CountingRedis;
  return (key, windowMs) => counting.otaWindowCount(key, windowMs);
}
