import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encodeEvents } from '../../../src/intake/event-rows.js';
import { eventStreamKey } from '../../../src/intake/event-stream.js';
import { RedisEventsStore } from '../../../src/intake/events.redis-store.js';
import { streamCountsKey, streamsToRead } from '../../../src/intake/stream-registry.js';
import {
  hashSlot,
  ingestStreamOf,
  ingestStreamTag,
  type Redis,
  RedisKeys,
} from '../../../src/platform/redis.js';
import { hourCounterKey, minuteCounterKey, windowKeys } from '../../../src/spikes/failure-counters.js';

/** The hash tag of a key: what a Redis Cluster places it by. */
const tagOf = (key: string) => /\{([^}]*)\}/.exec(key)?.[1];

/** Records what the events store sends: XADDs by stream (alone or in a pipeline) and SADDs. */
class RecordingRedis {
  readonly added: Array<{ stream: string; appId: string }> = [];
  readonly pipelines: string[][] = [];
  readonly sets = new Map<string, Set<string>>();
  async xadd(stream: string, _id: string, ...fields: string[]) {
    this.added.push({ stream, appId: fields[1]! });
    return '1-0';
  }
  async sadd(key: string, member: string) {
    const set = this.sets.get(key) ?? new Set();
    set.add(member);
    this.sets.set(key, set);
    return 1;
  }
  async smembers(key: string) {
    return [...(this.sets.get(key) ?? [])];
  }
  pipeline() {
    const streams: string[] = [];
    this.pipelines.push(streams);
    const commands = {
      xadd: (stream: string, id: string, ...fields: string[]) => {
        streams.push(stream);
        void this.xadd(stream, id, ...fields);
        return commands;
      },
      exec: async () => streams.map(() => [null, '1-0']),
    };
    return commands;
  }
}

function batch(appId: string) {
  const now = Date.now();
  return { appId, receivedMs: now, encoded: encodeEvents(appId, now, [], 90) };
}

describe('ingest stream routing', () => {
  it('sends every app to one stream, the same in every process, spread over all of them', () => {
    const apps = Array.from({ length: 3000 }, () => randomUUID());
    const counts = [0, 0, 0];
    for (const app of apps) {
      const s = ingestStreamOf(app, 3);
      expect(ingestStreamOf(app.toUpperCase(), 3)).toBe(s);
      counts[s]! += 1;
    }
    // About a third each (binomial: 1000 ± 26 one standard deviation).
    for (const n of counts) expect(n).toBeGreaterThan(850);
    for (const app of apps.slice(0, 50)) expect(ingestStreamOf(app, 1)).toBe(0);
    // A fixed vector (uint32_be of sha256 = 3682620896), so a change of the function, which would move
    // apps to other streams and break their order, is seen.
    expect(ingestStreamOf('00000000-0000-4000-8000-000000000000', 7)).toBe(3682620896 % 7);
  });

  it('names stream 0 as the single stream always was, and gives each stream a hash tag of its own', () => {
    const one = new RedisKeys('p');
    const three = new RedisKeys('p', 3);
    expect(eventStreamKey(one)).toBe('p:{ingest}:events');
    expect(eventStreamKey(three, 0)).toBe('p:{ingest}:events');
    expect(new Set([0, 1, 2].map((i) => tagOf(eventStreamKey(three, i)))).size).toBe(3);
  });

  it('puts the first n streams on different masters of a cluster of n masters with equal slot ranges (2, 3, 4, 6)', () => {
    // Vectors Redis gives for CLUSTER KEYSLOT {ingest} and {ingest:1:0}.
    expect(hashSlot('ingest')).toBe(6899);
    expect(hashSlot('ingest:1:0')).toBe(4208);
    for (const n of [2, 3, 4, 6]) {
      const masterOf = (slot: number) => Math.floor(slot / Math.ceil(16384 / n));
      const masters = Array.from({ length: n }, (_, i) => masterOf(hashSlot(ingestStreamTag(i))));
      expect(new Set(masters).size).toBe(n);
    }
    expect(ingestStreamTag(0)).toBe('ingest');
    expect(new Set(Array.from({ length: 64 }, (_, i) => ingestStreamTag(i))).size).toBe(64);
  });

  it("keeps an app's failure counters in its stream's hash tag, so the acknowledgement is one transaction", () => {
    const keys = new RedisKeys('p', 5);
    for (let i = 0; i < 40; i++) {
      const app = randomUUID();
      const stream = tagOf(eventStreamKey(keys, keys.streamOfApp(app)));
      expect(tagOf(minuteCounterKey(keys, app, 'm', 100, 'errors'))).toBe(stream);
      expect(tagOf(hourCounterKey(keys, app, 'm', 2, 'activations'))).toBe(stream);
      // A window is read with one PFCOUNT: all its keys in one slot.
      for (const minutes of [5, 120])
        expect(new Set(windowKeys(keys, app, 'm', 1000, minutes, 'networks').map(tagOf))).toEqual(
          new Set([stream]),
        );
    }
  });

  it('appends each batch to its own app stream, one pipeline per stream, after announcing the count', async () => {
    const redis = new RecordingRedis();
    const keys = new RedisKeys('p', 3);
    const store = new RedisEventsStore(redis as unknown as Redis, keys);
    const apps = Array.from({ length: 12 }, () => randomUUID());
    await store.append(apps.map(batch));
    expect(await streamsToRead(redis as unknown as Redis, new RedisKeys('p', 1))).toBe(3);
    expect(redis.sets.get(streamCountsKey(keys))).toEqual(new Set(['3']));
    for (const { stream, appId } of redis.added) {
      expect(stream).toBe(eventStreamKey(keys, keys.streamOfApp(appId)));
    }
    expect(redis.added).toHaveLength(12);
    // A pipeline never mixes streams (a Redis Cluster refuses keys of several slots in one).
    for (const streams of redis.pipelines) expect(new Set(streams).size).toBe(1);
    await store.append([batch(apps[0]!)]);
    expect(redis.added.at(-1)!.stream).toBe(eventStreamKey(keys, keys.streamOfApp(apps[0]!)));
  });

  it('reads the streams of the highest count announced, never fewer than its own', async () => {
    const redis = new RecordingRedis();
    const asRedis = redis as unknown as Redis;
    expect(await streamsToRead(asRedis, new RedisKeys('q', 2))).toBe(2);
    await redis.sadd(streamCountsKey(new RedisKeys('q')), '4');
    await redis.sadd(streamCountsKey(new RedisKeys('q')), 'junk');
    await redis.sadd(streamCountsKey(new RedisKeys('q')), '100000');
    expect(await streamsToRead(asRedis, new RedisKeys('q', 2))).toBe(4);
    expect(await streamsToRead(asRedis, new RedisKeys('q', 6))).toBe(6);
  });
});
