import type { Redis, RedisKeys } from '../platform/redis.js';
import { entryFields, eventStreamKey } from './event-stream.js';
import type { AcceptedBatch, EventsStore } from './events.store.js';
import { announceStreamCount } from './stream-registry.js';

/**
 * The event streams of this deployment: one XADD per batch, into the stream of the batch's app
 * (RedisKeys.streamOfApp), durable when it returns (Redis runs with AOF).
 */
export class RedisEventsStore implements EventsStore {
  private announced: Promise<void> | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  async append(batches: readonly AcceptedBatch[]): Promise<void> {
    if (batches.length === 0) return;
    // Workers learn of this process's stream count before its first entry lands in any of the streams.
    this.announced ??= announceStreamCount(this.redis, this.keys).catch((err: unknown) => {
      this.announced = undefined;
      throw err;
    });
    await this.announced;
    const fields = (b: AcceptedBatch) => entryFields(b.appId, b.receivedMs, b.encoded);
    const streamOf = (b: AcceptedBatch) => eventStreamKey(this.keys, this.keys.streamOfApp(b.appId));
    if (batches.length === 1) {
      // The intake's case: a pipeline would only add bookkeeping to a single command.
      const batch = batches[0]!;
      await this.redis.xadd(streamOf(batch), '*', ...fields(batch));
      return;
    }
    // One pipeline per stream: a Redis Cluster pipeline may only hold keys of one hash slot.
    const byStream = new Map<string, AcceptedBatch[]>();
    for (const batch of batches) {
      const key = streamOf(batch);
      const list = byStream.get(key);
      if (list) list.push(batch);
      else byStream.set(key, [batch]);
    }
    await Promise.all(
      [...byStream].map(async ([stream, list]) => {
        const pipeline = this.redis.pipeline();
        for (const batch of list) pipeline.xadd(stream, '*', ...fields(batch));
        const results = await pipeline.exec();
        const failed = results?.find(([err]) => err);
        if (failed) throw failed[0];
      }),
    );
  }
}
