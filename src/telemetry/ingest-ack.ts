import type { Redis, RedisKeys } from '../platform/redis.js';
import {
  COUNTER_KINDS,
  counterTargets,
  HOUR_COUNTER_TTL_SECONDS,
  hourCounterKey,
  MINUTE_COUNTER_TTL_SECONDS,
  minuteCounterKey,
} from './failure-counters.js';
import type { CounterDelta } from './ingest-batch.js';

/**
 * Acknowledges stored entries and adds their devices to the failure counters in one atomic script: an
 * entry's devices are added only when this call is the one that removes it from the group's pending list,
 * so a crash between insert and acknowledgement, or two workers racing on one entry, apply them once (and
 * adding a device to a HyperLogLog twice would change nothing anyway).
 *
 * The script touches the stream and counter keys, which share the {ingest} hash tag: one shard of a Redis
 * Cluster holds them all.
 *
 * KEYS: stream, then every counter key. ARGV: group, minute ttl, hour ttl, entry count, then per entry: id,
 * number of groups g, and g groups of (minute key index or 0, hour key index or 0, n, n device ids).
 */
const ACK_SCRIPT = `
local stream = KEYS[1]
local group = ARGV[1]
local minuteTtl = tonumber(ARGV[2])
local hourTtl = tonumber(ARGV[3])
local entries = tonumber(ARGV[4])
local i = 5
local acked = 0
local function add(keyIndex, ttl, first, n)
  if keyIndex == 0 then return end
  local key = KEYS[keyIndex]
  local from = first
  while from < first + n do
    local to = math.min(from + 499, first + n - 1)
    redis.call('PFADD', key, unpack(ARGV, from, to))
    from = to + 1
  end
  redis.call('EXPIRE', key, ttl)
end
for _ = 1, entries do
  local id = ARGV[i]
  local groups = tonumber(ARGV[i + 1])
  i = i + 2
  local mine = redis.call('XACK', stream, group, id) == 1
  if mine then
    acked = acked + 1
    redis.call('XDEL', stream, id)
  end
  for _ = 1, groups do
    local minuteKey = tonumber(ARGV[i])
    local hourKey = tonumber(ARGV[i + 1])
    local n = tonumber(ARGV[i + 2])
    if mine and n > 0 then
      add(minuteKey, minuteTtl, i + 3, n)
      add(hourKey, hourTtl, i + 3, n)
    end
    i = i + 3 + n
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

// Arguments per script call: calls are split between entries beyond it (each entry stays atomic), so a
// large batch never builds one huge argument list.
const MAX_ARGS_PER_CALL = 50_000;

/** Returns how many of the entries this call acknowledged (the others were already handled elsewhere). */
export async function ackEntries(
  redis: Redis,
  keys: RedisKeys,
  stream: string,
  group: string,
  entryIds: readonly string[],
  counters: ReadonlyMap<string, readonly CounterDelta[]>,
): Promise<number> {
  let acked = 0;
  let call = new AckCall(stream, group);
  for (const id of entryIds) {
    call.add(keys, id, counters.get(id) ?? []);
    if (call.size >= MAX_ARGS_PER_CALL) {
      acked += await call.run(redis);
      call = new AckCall(stream, group);
    }
  }
  return acked + (await call.run(redis));
}

class AckCall {
  private readonly keyIndex = new Map<string, number>();
  private readonly keyList: string[];
  private readonly args: string[] = [];
  private entries = 0;

  constructor(
    stream: string,
    private readonly group: string,
  ) {
    this.keyList = [stream];
  }

  get size(): number {
    return this.args.length + this.keyList.length;
  }

  add(keys: RedisKeys, id: string, deltas: readonly CounterDelta[]): void {
    const groups: string[] = [];
    let count = 0;
    for (const d of deltas) {
      const target = counterTargets(d.minute, d.receivedMinute);
      for (const kind of COUNTER_KINDS) {
        const devices = d[kind];
        if (devices.length === 0 || (target.minute === null && target.hour === null)) continue;
        const minuteKey =
          target.minute === null
            ? 0
            : this.indexOf(minuteCounterKey(keys, d.appId, d.moduleId, target.minute, kind));
        const hourKey =
          target.hour === null
            ? 0
            : this.indexOf(hourCounterKey(keys, d.appId, d.moduleId, target.hour, kind));
        groups.push(String(minuteKey), String(hourKey), String(devices.length));
        for (const device of devices) groups.push(device);
        count += 1;
      }
    }
    this.args.push(id, String(count));
    for (const arg of groups) this.args.push(arg);
    this.entries += 1;
  }

  async run(redis: Redis): Promise<number> {
    if (this.entries === 0) return 0;
    const head = [
      this.group,
      String(MINUTE_COUNTER_TTL_SECONDS),
      String(HOUR_COUNTER_TTL_SECONDS),
      String(this.entries),
    ];
    return withAckScript(redis).ingestAck(this.keyList.length, ...this.keyList, ...head, ...this.args);
  }

  private indexOf(key: string): number {
    let index = this.keyIndex.get(key);
    if (index === undefined) {
      this.keyList.push(key);
      index = this.keyList.length; // Lua's KEYS is 1-based
      this.keyIndex.set(key, index);
    }
    return index;
  }
}
