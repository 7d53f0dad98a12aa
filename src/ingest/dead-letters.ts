import { isUuid } from '@ota/shared/ids';
import { deadLetterKey } from '../intake/event-stream.js';
import { streamsToRead } from '../intake/stream-registry.js';
import type { Redis, RedisKeys } from '../platform/redis.js';

/**
 * Counts of dead-lettered entries of stream `index` (fields `entries`, `events`, and per app
 * `<app id>:…`), beside the stream.
 */
export function deadLetterStatsKey(keys: RedisKeys, index = 0): string {
  return keys.ingestShard(index, 'events:dead:stats');
}

export interface DeadLetter {
  entryId: string;
  fields: readonly string[];
  /** Why: the ClickHouse error, or what made the entry unreadable. */
  reason: string;
  /** The entry's app when it names one that looks like an app id; '' otherwise. */
  appId: string;
  /** Events in the entry, as far as known. */
  events: number;
}

/**
 * Moves entries to the dead-letter stream and counts them, in one atomic script per call: an entry is
 * moved only by the call whose XACK removes it from the group's pending list, so a crash or a race never
 * moves or counts it twice. Entries are kept until an operator removes them (they can be fixed and added
 * to the event stream again), unless `maxEntries` (> 0) caps the stream, approximately; the counts keep
 * growing either way. Keys share the hash tag of the stream (`streamIndex`).
 *
 * KEYS: stream, dead-letter stream, stats hash. ARGV: group, max entries, now (ms), then per entry: id,
 * fields (JSON), reason, app id or '', events.
 */
const DEAD_LETTER_SCRIPT = `
local moved = 0
for i = 4, #ARGV, 5 do
  local id, fields, reason, app, events = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], tonumber(ARGV[i + 4])
  if redis.call('XACK', KEYS[1], ARGV[1], id) == 1 then
    redis.call('XDEL', KEYS[1], id)
    if tonumber(ARGV[2]) > 0 then
      redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], '*', 'id', id, 'fields', fields, 'reason', reason, 'app', app, 'at', ARGV[3])
    else
      redis.call('XADD', KEYS[2], '*', 'id', id, 'fields', fields, 'reason', reason, 'app', app, 'at', ARGV[3])
    end
    redis.call('HINCRBY', KEYS[3], 'entries', 1)
    redis.call('HINCRBY', KEYS[3], 'events', events)
    if app ~= '' then
      redis.call('HINCRBY', KEYS[3], app .. ':entries', 1)
      redis.call('HINCRBY', KEYS[3], app .. ':events', events)
      redis.call('HSET', KEYS[3], app .. ':last', ARGV[3])
    end
    moved = moved + 1
  end
end
return moved
`;

type WithScript = Redis & { ingestDeadLetter(numKeys: number, ...args: string[]): Promise<number> };

export async function moveToDeadLetters(
  redis: Redis,
  keys: RedisKeys,
  stream: string,
  group: string,
  maxEntries: number,
  letters: readonly DeadLetter[],
  streamIndex = 0,
): Promise<number> {
  if (letters.length === 0) return 0;
  const r = redis as WithScript;
  if (typeof r.ingestDeadLetter !== 'function')
    r.defineCommand('ingestDeadLetter', { lua: DEAD_LETTER_SCRIPT });
  const args = [group, String(maxEntries), String(Date.now())];
  for (const l of letters) {
    args.push(
      l.entryId,
      JSON.stringify(l.fields),
      l.reason.slice(0, 1000),
      isUuid(l.appId) ? l.appId.toLowerCase() : '',
      String(Math.max(0, Math.floor(l.events)) || 0),
    );
  }
  return r.ingestDeadLetter(
    3,
    stream,
    deadLetterKey(keys, streamIndex),
    deadLetterStatsKey(keys, streamIndex),
    ...args,
  );
}

export interface DeadLetterCounts {
  entries: number;
  events: number;
}

export interface DeadLetterStats extends DeadLetterCounts {
  /** Per app asked about: its counts and when its last entry was set aside (null: never). */
  apps: Array<{ appId: string; counts: DeadLetterCounts; lastAt: Date | null }>;
  /** Entries held in the dead-letter stream now (the stream is capped; the counts are not). */
  held: number;
}

/** The deployment's counts, and those of the given apps: one round trip per stream, summed. */
export async function readDeadLetterStats(
  redis: Redis,
  keys: RedisKeys,
  appIds: readonly string[],
): Promise<DeadLetterStats> {
  const streams = await streamsToRead(redis, keys);
  const parts = await Promise.all(
    Array.from({ length: streams }, (_, i) => readStreamDeadLetters(redis, keys, appIds, i)),
  );
  const total: DeadLetterStats = {
    entries: 0,
    events: 0,
    held: 0,
    apps: appIds.map((appId) => ({ appId, counts: { entries: 0, events: 0 }, lastAt: null })),
  };
  for (const part of parts) {
    total.entries += part.entries;
    total.events += part.events;
    total.held += part.held;
    part.apps.forEach((app, i) => {
      const sum = total.apps[i]!;
      sum.counts.entries += app.counts.entries;
      sum.counts.events += app.counts.events;
      if (app.lastAt && (!sum.lastAt || app.lastAt > sum.lastAt)) sum.lastAt = app.lastAt;
    });
  }
  return total;
}

/** One stream's counts (its keys share one hash tag: one pipeline). */
async function readStreamDeadLetters(
  redis: Redis,
  keys: RedisKeys,
  appIds: readonly string[],
  index: number,
): Promise<DeadLetterStats> {
  const fields = ['entries', 'events'];
  for (const app of appIds) fields.push(`${app}:entries`, `${app}:events`, `${app}:last`);
  const replies = (await redis
    .pipeline()
    .hmget(deadLetterStatsKey(keys, index), ...fields)
    .xlen(deadLetterKey(keys, index))
    .exec()) as Array<[Error | null, unknown]> | null;
  const [values, held] = [0, 1].map((i) => {
    const [err, value] = replies?.[i] ?? [new Error('no reply from Redis'), null];
    if (err) throw err;
    return value;
  });
  const v = (values as Array<string | null>).map((x) => (x === null ? 0 : Number(x) || 0));
  return {
    entries: v[0]!,
    events: v[1]!,
    held: Number(held) || 0,
    apps: appIds.map((appId, i) => ({
      appId,
      counts: { entries: v[2 + i * 3]!, events: v[3 + i * 3]! },
      lastAt: v[4 + i * 3] ? new Date(v[4 + i * 3]!) : null,
    })),
  };
}
