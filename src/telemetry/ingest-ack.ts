import type { Redis, RedisKeys } from '../platform/redis.js';
import { FAILURE_COUNTER_TTL_SECONDS, failureCounterKey } from './failure-counters.js';
import type { CounterDelta } from './ingest-batch.js';

/**
 * Acknowledges stored entries and applies their failure-counter increments in one atomic script: an
 * entry's increments are applied only when this call is the one that removes it from the group's pending
 * list. A worker that crashed after the insert but before this call applied nothing, so the worker that
 * claims its entries counts them once; two workers racing on the same entry count it once too.
 *
 * The script touches the stream and counter keys, which share the {ingest} hash tag: one shard of a Redis
 * Cluster holds them all.
 *
 * KEYS: stream, then every counter key. ARGV: group, ttl, entry count, then per entry: id, number of
 * counters n, and n triples (index into KEYS, activations, errors).
 */
const ACK_SCRIPT = `
local stream = KEYS[1]
local group = ARGV[1]
local ttl = tonumber(ARGV[2])
local entries = tonumber(ARGV[3])
local i = 4
local acked = 0
for _ = 1, entries do
  local id = ARGV[i]
  local n = tonumber(ARGV[i + 1])
  i = i + 2
  if redis.call('XACK', stream, group, id) == 1 then
    acked = acked + 1
    redis.call('XDEL', stream, id)
    for _ = 1, n do
      local key = KEYS[tonumber(ARGV[i])]
      local activations = tonumber(ARGV[i + 1])
      local errors = tonumber(ARGV[i + 2])
      if activations > 0 then redis.call('HINCRBY', key, 'activations', activations) end
      if errors > 0 then redis.call('HINCRBY', key, 'errors', errors) end
      redis.call('EXPIRE', key, ttl)
      i = i + 3
    end
  else
    i = i + 3 * n
  end
end
return acked
`;

type WithAck = Redis & {
  ingestAck(numKeys: number, ...args: string[]): Promise<number>;
};

/** Registers the script on a connection (EVALSHA, falling back to EVAL after a Redis restart). */
export function withAckScript(redis: Redis): WithAck {
  const r = redis as WithAck;
  if (typeof r.ingestAck !== 'function') r.defineCommand('ingestAck', { lua: ACK_SCRIPT });
  return r;
}

/** Returns how many of the entries this call acknowledged (the others were already handled elsewhere). */
export async function ackEntries(
  redis: Redis,
  keys: RedisKeys,
  stream: string,
  group: string,
  entryIds: readonly string[],
  counters: ReadonlyMap<string, readonly CounterDelta[]>,
): Promise<number> {
  if (entryIds.length === 0) return 0;
  const keyIndex = new Map<string, number>();
  const keyList: string[] = [stream];
  const args: string[] = [group, String(FAILURE_COUNTER_TTL_SECONDS), String(entryIds.length)];
  for (const id of entryIds) {
    const deltas = counters.get(id) ?? [];
    args.push(id, String(deltas.length));
    for (const d of deltas) {
      const key = failureCounterKey(keys, d.appId, d.moduleId, d.minute);
      let index = keyIndex.get(key);
      if (index === undefined) {
        keyList.push(key);
        index = keyList.length; // Lua's KEYS is 1-based
        keyIndex.set(key, index);
      }
      args.push(String(index), String(d.activations), String(d.errors));
    }
  }
  return withAckScript(redis).ingestAck(keyList.length, ...keyList, ...args);
}
