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

  async append(batch: AcceptedBatch): Promise<void> {
    await this.redis.xadd(this.stream, '*', ...entryFields(batch.appId, batch.receivedMs, batch.encoded));
  }
}
