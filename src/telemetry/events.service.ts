import { notFound } from '../platform/errors.js';
import type { Redis, RedisKeys } from '../platform/redis.js';
import type { AppDirectory } from './app-directory.js';
import { type EventInput, encodeEvents } from './event-rows.js';
import { entryFields, eventStreamKey } from './event-stream.js';

/**
 * Accepts a validated batch of device events: one XADD carrying the whole batch, so the batch is taken or
 * refused whole in one round trip. Redis runs with AOF, so an answered 202 survives a Redis restart; the
 * ingest workers take it from there.
 */
export class EventIngestService {
  private readonly stream: string;

  constructor(
    private readonly redis: Redis,
    keys: RedisKeys,
    private readonly apps: AppDirectory,
    private readonly retentionDays: number,
    private readonly now: () => number = Date.now,
  ) {
    this.stream = eventStreamKey(keys);
  }

  async accept(appId: string, events: readonly EventInput[]): Promise<number> {
    if (!(await this.apps.workspaceOf(appId))) throw notFound('App', 'app_not_found');
    const app = appId.toLowerCase();
    const received = this.now();
    const encoded = encodeEvents(app, received, events, this.retentionDays);
    await this.redis.xadd(this.stream, '*', ...entryFields(app, received, encoded));
    return events.length;
  }
}
