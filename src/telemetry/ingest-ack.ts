import type { Redis, RedisKeys } from '../platform/redis.js';
import {
  COUNTER_KINDS,
  counterTargets,
  HOUR_COUNTER_TTL_SECONDS,
  hourCounterKey,
  MINUTE_COUNTER_TTL_SECONDS,
  minuteCounterKey,
  queueDeviceAdds,
} from './failure-counters.js';
import type { CounterDelta } from './ingest-batch.js';

// Entry ids per XACK and XDEL: a long list is split so that no command carries a huge argument list.
const IDS_PER_COMMAND = 1000;

/**
 * Acknowledges stored entries and adds their devices to the failure counters, in one MULTI/EXEC: the
 * counters move exactly when the entries leave the group's pending list, so a worker that dies before it
 * acknowledges has counted nothing, and the worker that takes its entries over counts them.
 *
 * The devices of every entry handed over are added, also of one another worker acknowledged meanwhile
 * (two workers raced on it): both add the same devices to the same HyperLogLogs, which changes nothing.
 * So no script has to decide, entry by entry, whose acknowledgement came first; an earlier version did,
 * in Lua, and copying every device id into the script and back made it Redis's costliest command under
 * load (about 15 ms a flush, during which Redis answered nobody). The devices are gathered per counter
 * across the entries: one PFADD per 1,000 devices and one EXPIRE per counter, not one each per entry.
 *
 * The commands touch the stream and counter keys, which share the {ingest} hash tag: one shard of a Redis
 * Cluster holds them all.
 *
 * Returns how many of the entries this call acknowledged (the others were already handled elsewhere).
 */
export async function ackEntries(
  redis: Redis,
  keys: RedisKeys,
  stream: string,
  group: string,
  entryIds: readonly string[],
  counters: ReadonlyMap<string, readonly CounterDelta[]>,
): Promise<number> {
  if (entryIds.length === 0) return 0;
  const devices = new Map<string, { ttl: number; list: string[] }>();
  const gather = (key: string, ttl: number, list: readonly string[]) => {
    let slot = devices.get(key);
    if (!slot) {
      slot = { ttl, list: [] };
      devices.set(key, slot);
    }
    for (const device of list) slot.list.push(device);
  };
  for (const id of entryIds) {
    for (const d of counters.get(id) ?? []) {
      const target = counterTargets(d.minute, d.receivedMinute);
      for (const kind of COUNTER_KINDS) {
        const list = d[kind];
        if (list.length === 0) continue;
        if (target.minute !== null) {
          const key = minuteCounterKey(keys, d.appId, d.moduleId, target.minute, kind);
          gather(key, MINUTE_COUNTER_TTL_SECONDS, list);
        }
        if (target.hour !== null) {
          const key = hourCounterKey(keys, d.appId, d.moduleId, target.hour, kind);
          gather(key, HOUR_COUNTER_TTL_SECONDS, list);
        }
      }
    }
  }
  // One transaction: the counters move with the acknowledgement, never without it.
  const multi = redis.multi();
  let queued = 0;
  for (const [key, { ttl, list }] of devices) queued += queueDeviceAdds(multi, key, list, ttl);
  const xackAt: number[] = [];
  for (let i = 0; i < entryIds.length; i += IDS_PER_COMMAND) {
    const ids = entryIds.slice(i, i + IDS_PER_COMMAND);
    xackAt.push(queued);
    multi.xack(stream, group, ...ids);
    multi.xdel(stream, ...ids);
    queued += 2;
  }
  const results = await multi.exec();
  if (!results) throw new Error('the acknowledgement transaction was aborted');
  const failed = results.find(([err]) => err);
  if (failed) throw failed[0];
  return xackAt.reduce((sum, at) => sum + Number(results[at]![1]), 0);
}
