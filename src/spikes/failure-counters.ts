import type { ChainableCommander } from 'ioredis';
import type { Redis, RedisKeys } from '../platform/redis.js';

/**
 * Failure counters, the input of error-spike decisions: for every release of an app, the distinct devices
 * that reported an activation and those that reported an error, and the distinct client networks (IPv4
 * /24, IPv6 /48) the errors came from, per minute and per hour, as Redis HyperLogLogs. A device counts once per kind however many events it sends, and adding a device again
 * changes nothing, so a re-delivered or re-sent batch cannot move the counts.
 *
 * A window of up to 60 minutes is the union of its minute counters; a longer one (up to 1,440) the union of
 * whole clock hours covering it (see windowKeys). Minute counters live two hours, hour counters 27 hours,
 * and events too old to fall in any window add to no counter, so a device's clock cannot make keys for
 * arbitrary times: at most about 65 minute and 26 hour counters per release and kind exist at once.
 *
 * The keys share the hash tag of the stream the app's events go to (RedisKeys.ingestApp): ingest updates
 * them in the transaction that acknowledges that stream's entries, and one PFCOUNT of a window reads keys
 * of one Redis Cluster shard. When INGEST_STREAMS changes, an app's counters start again beside its new
 * stream: a window spanning the change counts only what arrived since it.
 */
export const COUNTER_KINDS = ['activations', 'errors', 'networks'] as const;
export type CounterKind = (typeof COUNTER_KINDS)[number];

/** Each kind's letter in its key; `networks` counts the client networks of failing devices, not devices. */
const KIND_SUFFIX: Record<CounterKind, string> = { activations: 'a', errors: 'e', networks: 'n' };

export const MINUTE_COUNTER_TTL_SECONDS = 2 * 3600;
export const HOUR_COUNTER_TTL_SECONDS = 27 * 3600;
/** The longest alert window (alerts.routes.ts); events older than it are counted nowhere. */
export const MAX_WINDOW_MINUTES = 1440;
/** Windows up to this long read minute counters; longer ones read hour counters. */
export const MINUTE_WINDOW_LIMIT = 60;

export function minuteOf(epochMs: number): number {
  return Math.floor(epochMs / 60_000);
}

export function minuteCounterKey(
  keys: RedisKeys,
  appId: string,
  moduleId: string,
  minute: number,
  kind: CounterKind,
): string {
  return keys.ingestApp(appId, `devfail:${appId}:${moduleId}:m${minute}:${KIND_SUFFIX[kind]}`);
}

export function hourCounterKey(
  keys: RedisKeys,
  appId: string,
  moduleId: string,
  hour: number,
  kind: CounterKind,
): string {
  return keys.ingestApp(appId, `devfail:${appId}:${moduleId}:h${hour}:${KIND_SUFFIX[kind]}`);
}

/** Which counters an event of `minute` feeds, given when the batch was received (null: none). */
export function counterTargets(
  minute: number,
  receivedMinute: number,
): { minute: number | null; hour: number | null } {
  const hour = Math.floor(minute / 60);
  const recentMinute = minute > receivedMinute - MINUTE_WINDOW_LIMIT - 5;
  const recentHour = hour > Math.floor(receivedMinute / 60) - Math.ceil(MAX_WINDOW_MINUTES / 60) - 1;
  return { minute: recentMinute ? minute : null, hour: recentHour ? hour : null };
}

/**
 * The counter keys whose union is the window of `windowMinutes` ending at `nowMinute` (inclusive). Up to 60
 * minutes: exactly those minutes. Longer: the current clock hour so far and as many whole hours before it
 * as cover the window, so up to 59 minutes more than asked are counted.
 */
export function windowKeys(
  keys: RedisKeys,
  appId: string,
  moduleId: string,
  nowMinute: number,
  windowMinutes: number,
  kind: CounterKind,
): string[] {
  const out: string[] = [];
  if (windowMinutes <= MINUTE_WINDOW_LIMIT) {
    for (let m = nowMinute - windowMinutes + 1; m <= nowMinute; m++)
      out.push(minuteCounterKey(keys, appId, moduleId, m, kind));
    return out;
  }
  const hour = Math.floor(nowMinute / 60);
  const covered = (nowMinute % 60) + 1;
  const earlier = Math.max(0, Math.ceil((windowMinutes - covered) / 60));
  for (let h = hour - earlier; h <= hour; h++) out.push(hourCounterKey(keys, appId, moduleId, h, kind));
  return out;
}

// Devices per PFADD: a long list is split so that no command carries a huge argument list.
const DEVICES_PER_COMMAND = 1000;

/**
 * Queues what adds devices to one counter: a PFADD per 1,000 devices, then the counter's time to live.
 * Answers how many commands it queued (a caller reading the replies by position needs it).
 */
export function queueDeviceAdds(
  commands: ChainableCommander,
  key: string,
  devices: readonly string[],
  ttlSeconds: number,
): number {
  let queued = 0;
  for (let i = 0; i < devices.length; i += DEVICES_PER_COMMAND) {
    commands.pfadd(key, ...devices.slice(i, i + DEVICES_PER_COMMAND));
    queued += 1;
  }
  commands.expire(key, ttlSeconds);
  return queued + 1;
}

/**
 * Adds devices to the counters of one minute directly: what ingest's acknowledgement (ingest-ack.ts) does
 * for a batch, for tools and tests that need counters without the stream.
 */
export async function addDeviceCounts(
  redis: Redis,
  keys: RedisKeys,
  target: { appId: string; moduleId: string; minute: number },
  devices: Partial<Record<CounterKind, readonly string[]>>,
): Promise<void> {
  const pipeline = redis.pipeline();
  for (const kind of COUNTER_KINDS) {
    const list = devices[kind] ?? [];
    if (list.length === 0) continue;
    const hour = Math.floor(target.minute / 60);
    const minuteKey = minuteCounterKey(keys, target.appId, target.moduleId, target.minute, kind);
    queueDeviceAdds(pipeline, minuteKey, list, MINUTE_COUNTER_TTL_SECONDS);
    const hourKey = hourCounterKey(keys, target.appId, target.moduleId, hour, kind);
    queueDeviceAdds(pipeline, hourKey, list, HOUR_COUNTER_TTL_SECONDS);
  }
  const results = await pipeline.exec();
  const failed = results?.find(([err]) => err);
  if (failed) throw failed[0];
}
