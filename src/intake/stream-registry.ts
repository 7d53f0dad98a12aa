import { MAX_INGEST_STREAMS, type Redis, type RedisKeys } from '../platform/redis.js';

/**
 * Every INGEST_STREAMS count a process of the deployment appended with, as a set of numbers. Workers read
 * the streams of the highest count ever used, whatever their own setting, so entries accepted into
 * streams beyond a lowered count (or by an API copy still on the old setting) are drained and stored.
 */
export function streamCountsKey(keys: RedisKeys): string {
  return keys.global('ingest:stream-counts');
}

/** Records this process's count before it appends to any stream (SADD: idempotent, one key). */
export async function announceStreamCount(redis: Redis, keys: RedisKeys): Promise<void> {
  await redis.sadd(streamCountsKey(keys), String(keys.ingestStreams));
}

/** How many streams workers read: the highest count announced, and at least this process's own. */
export async function streamsToRead(redis: Redis, keys: RedisKeys): Promise<number> {
  const members = await redis.smembers(streamCountsKey(keys));
  let most = keys.ingestStreams;
  for (const m of members) {
    const n = Number(m);
    if (Number.isSafeInteger(n) && n > most && n <= MAX_INGEST_STREAMS) most = n;
  }
  return most;
}
