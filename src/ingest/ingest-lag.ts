import { eventStreamKey, INGEST_GROUP } from '../intake/event-stream.js';
import { streamsToRead } from '../intake/stream-registry.js';
import type { Redis, RedisKeys } from '../platform/redis.js';

export interface IngestLag {
  /** Entries the API appended that no ingest worker has read yet. */
  unread: number;
  /** Entries read by a worker and not yet stored and acknowledged. */
  pending: number;
  /** Age of the oldest unread entry (0 when none waits): how far behind ingest is. */
  oldestUnreadMs: number;
}

/** How far the ingest workers are behind, deployment-wide: summed over the streams, the oldest of them. */
export async function readIngestLag(redis: Redis, keys: RedisKeys, now = Date.now()): Promise<IngestLag> {
  const streams = await streamsToRead(redis, keys);
  const lags = await Promise.all(
    Array.from({ length: streams }, (_, i) => readStreamLag(redis, eventStreamKey(keys, i), now)),
  );
  return lags.reduce((sum, lag) => ({
    unread: sum.unread + lag.unread,
    pending: sum.pending + lag.pending,
    oldestUnreadMs: Math.max(sum.oldestUnreadMs, lag.oldestUnreadMs),
  }));
}

/**
 * How far the ingest workers are behind one stream, in three commands. Stored entries are deleted
 * (ingest-ack.ts), so the stream holds only pending and unread ones: when Redis cannot tell the group's lag
 * (before 7.0, or after deletions it cannot account for), the length less the pending entries is the same
 * number.
 */
async function readStreamLag(redis: Redis, stream: string, now: number): Promise<IngestLag> {
  const groups = (await redis.xinfo('GROUPS', stream).catch((err: Error) => {
    // No stream yet (nothing was ever accepted, or no worker ever made the group): nothing waits.
    if (/no such key/i.test(err.message)) return [];
    throw err;
  })) as unknown[][];
  const group = groups.map(fieldsOf).find((g) => g.get('name') === INGEST_GROUP);
  const length = await redis.xlen(stream);
  if (!group) return { unread: length, pending: 0, oldestUnreadMs: await oldestAge(redis, stream, '-', now) };
  const pending = Number(group.get('pending')) || 0;
  const lag = group.get('lag');
  const unread = typeof lag === 'number' ? lag : Math.max(0, length - pending);
  const lastDelivered = String(group.get('last-delivered-id') ?? '0-0');
  const oldestUnreadMs = unread === 0 ? 0 : await oldestAge(redis, stream, `(${lastDelivered}`, now);
  return { unread, pending, oldestUnreadMs };
}

/** Age of the first entry from `start` on (an entry id's first part is when it was added, in ms). */
async function oldestAge(redis: Redis, stream: string, start: string, now: number): Promise<number> {
  const [first] = (await redis.xrange(stream, start, '+', 'COUNT', 1)) as Array<[string, string[]]>;
  if (!first) return 0;
  return Math.max(0, now - Number(first[0].split('-')[0]));
}

function fieldsOf(flat: unknown[]): Map<string, unknown> {
  const fields = new Map<string, unknown>();
  for (let i = 0; i + 1 < flat.length; i += 2) fields.set(String(flat[i]), flat[i + 1]);
  return fields;
}
