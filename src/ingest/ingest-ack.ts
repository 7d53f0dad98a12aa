import type { ChainableCommander } from 'ioredis';
import type { Redis, RedisKeys } from '../platform/redis.js';
import {
  COUNTER_KINDS,
  counterTargets,
  HOUR_COUNTER_TTL_SECONDS,
  hourCounterKey,
  MINUTE_COUNTER_TTL_SECONDS,
  minuteCounterKey,
  queueDeviceAdds,
} from '../spikes/failure-counters.js';
import type { CounterDelta } from './ingest-batch.js';

// Entry ids per XACK and XDEL: a long list is split so that no command carries a huge argument list.
const IDS_PER_COMMAND = 1000;

/**
 * An hour counter that a flush brings at least this many devices through its minute counters is merged
 * from them (PFMERGE) instead of sent every device a second time. The union of HyperLogLogs has exactly
 * the registers of adding the devices, so the count is the same (a minute counter's devices of earlier
 * flushes are in the hour counter already); but a merged counter is stored dense, 12 KB, where a small
 * one is a few hundred bytes. From 2,000 devices a counter is dense anyway, and sending each device once
 * instead of twice saved the ingest worker about a fifth of its CPU under load (bench/profiles.md).
 */
export const MERGE_FROM_DEVICES = 2000;

/** One hour counter's devices in a flush: by the minute counters they came through, and the rest. */
interface HourDevices {
  minuteKeys: Set<string>;
  /** How many devices came through minute counters (with repeats). */
  fromMinutes: number;
  /** Devices of events too old for any minute counter, which feed the hour counter only. */
  loose: string[];
}

/** The flush's devices gathered per counter across its entries. */
function gatherCounters(
  keys: RedisKeys,
  entryIds: readonly string[],
  counters: ReadonlyMap<string, readonly CounterDelta[]>,
): { minutes: Map<string, string[]>; hours: Map<string, HourDevices> } {
  const minutes = new Map<string, string[]>();
  const hours = new Map<string, HourDevices>();
  for (const id of entryIds) {
    for (const d of counters.get(id) ?? []) {
      const target = counterTargets(d.minute, d.receivedMinute);
      for (const kind of COUNTER_KINDS) {
        const list = d[kind];
        if (list.length === 0) continue;
        const minuteKey =
          target.minute === null
            ? undefined
            : minuteCounterKey(keys, d.appId, d.moduleId, target.minute, kind);
        if (minuteKey) {
          const devices = minutes.get(minuteKey);
          if (devices) for (const device of list) devices.push(device);
          else minutes.set(minuteKey, [...list]);
        }
        if (target.hour === null) continue;
        const hourKey = hourCounterKey(keys, d.appId, d.moduleId, target.hour, kind);
        let hour = hours.get(hourKey);
        if (!hour) {
          hour = { minuteKeys: new Set(), fromMinutes: 0, loose: [] };
          hours.set(hourKey, hour);
        }
        // The minute counter is of the same clock hour (counterTargets): its devices are the hour's.
        if (minuteKey) {
          hour.minuteKeys.add(minuteKey);
          hour.fromMinutes += list.length;
        } else for (const device of list) hour.loose.push(device);
      }
    }
  }
  return { minutes, hours };
}

/** Queues the gathered counters' updates: minute counters, then hour counters (merged or added to). */
function queueCounters(
  multi: ChainableCommander,
  { minutes, hours }: ReturnType<typeof gatherCounters>,
): number {
  let queued = 0;
  // Minute counters first: an hour counter may be merged from them below.
  for (const [key, devices] of minutes)
    queued += queueDeviceAdds(multi, key, devices, MINUTE_COUNTER_TTL_SECONDS);
  for (const [key, hour] of hours) {
    const merged = hour.fromMinutes >= MERGE_FROM_DEVICES;
    if (merged) {
      multi.pfmerge(key, ...hour.minuteKeys);
      queued += 1;
    }
    const devices = merged
      ? hour.loose
      : [...hour.loose, ...[...hour.minuteKeys].flatMap((m) => minutes.get(m) ?? [])];
    if (devices.length > 0) queued += queueDeviceAdds(multi, key, devices, HOUR_COUNTER_TTL_SECONDS);
    else {
      multi.expire(key, HOUR_COUNTER_TTL_SECONDS);
      queued += 1;
    }
  }
  return queued;
}

async function execOrThrow(multi: ChainableCommander): Promise<Array<[Error | null, unknown]>> {
  const results = await multi.exec();
  if (!results) throw new Error('the acknowledgement transaction was aborted');
  const failed = results.find(([err]) => err);
  if (failed) throw failed[0];
  return results;
}

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
 * across the entries: one PFADD per 1,000 devices and one EXPIRE per counter, not one each per entry; an
 * hour counter that many devices reach is merged from its minute counters (MERGE_FROM_DEVICES).
 *
 * The commands touch stream `streamIndex` and the counters of its apps, which share its hash tag: one
 * shard of a Redis Cluster holds them all. Entries of an app whose events now go to another stream (a
 * stream drained after INGEST_STREAMS changed) count beside that other stream, in a transaction of its
 * own run first: adding devices twice changes nothing, so a worker dying between the two loses nothing.
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
  streamIndex = 0,
): Promise<number> {
  if (entryIds.length === 0) return 0;
  const here = new Map<string, CounterDelta[]>();
  const elsewhere = new Map<number, Map<string, CounterDelta[]>>();
  for (const id of entryIds) {
    for (const d of counters.get(id) ?? []) {
      const index = keys.streamOfApp(d.appId);
      let byEntry = here;
      if (index !== streamIndex) {
        byEntry = elsewhere.get(index) ?? new Map<string, CounterDelta[]>();
        elsewhere.set(index, byEntry);
      }
      const list = byEntry.get(id);
      if (list) list.push(d);
      else byEntry.set(id, [d]);
    }
  }
  for (const byEntry of elsewhere.values()) {
    const multi = redis.multi();
    queueCounters(multi, gatherCounters(keys, [...byEntry.keys()], byEntry));
    await execOrThrow(multi);
  }
  // One transaction: the counters move with the acknowledgement, never without it.
  const multi = redis.multi();
  let queued = queueCounters(multi, gatherCounters(keys, entryIds, here));
  const xackAt: number[] = [];
  for (let i = 0; i < entryIds.length; i += IDS_PER_COMMAND) {
    const ids = entryIds.slice(i, i + IDS_PER_COMMAND);
    xackAt.push(queued);
    multi.xack(stream, group, ...ids);
    multi.xdel(stream, ...ids);
    queued += 2;
  }
  const results = await execOrThrow(multi);
  return xackAt.reduce((sum, at) => sum + Number(results[at]![1]), 0);
}
