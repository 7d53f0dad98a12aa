import type { Redis, RedisKeys } from '../platform/redis.js';
import { entryFields, eventStreamKey } from './event-stream.js';
import type { AcceptedBatch, EventsStore } from './events.store.js';

/** The event stream of this deployment: one XADD per batch, durable when it returns (Redis runs with AOF). */
export class RedisEventsStore implements EventsStore {
  private readonly stream: string;

  constructor(
    private readonly redis: Redis,
    keys: RedisKeys,
  ) {
    this.stream = eventStreamKey(keys);
  }

  async append(batches: readonly AcceptedBatch[]): Promise<void> {
    const fields = (b: AcceptedBatch) => entryFields(b.appId, b.receivedMs, b.encoded);
    if (batches.length === 1) {
      // The intake's case: a pipeline would only add bookkeeping to a single command.
      await this.redis.xadd(this.stream, '*', ...fields(batches[0]!));
      return;
    }
    if (batches.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const batch of batches) pipeline.xadd(this.stream, '*', ...fields(batch));
    const results = await pipeline.exec();
    const failed = results?.find(([err]) => err);
    if (failed) throw failed[0];
  }
}
