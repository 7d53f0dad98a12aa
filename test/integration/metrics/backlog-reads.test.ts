import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { readIngestLag } from '../../../src/ingest/ingest-lag.js';
import { eventStreamKey, INGEST_GROUP } from '../../../src/intake/event-stream.js';
import { QueueDepths } from '../../../src/platform/queue-depths.js';
import { fileContext } from '../../helpers/context.js';

/**
 * What the worker process's /metrics reads from Redis at scrape time, on the real Redis: the ingest
 * backlog of the event stream, and the BullMQ queues' depths and the age of their oldest waiting job.
 */
const ctx = fileContext({ withoutApp: true });

describe('the ingest backlog', () => {
  it('is nothing before the API ever appended an entry', async () => {
    expect(await readIngestLag(ctx.deps.redis, ctx.deps.keys)).toEqual({
      unread: 0,
      pending: 0,
      oldestUnreadMs: 0,
    });
  });

  it('counts entries no worker read, those read and not stored, and the age of the oldest unread', async () => {
    const { redis, keys } = ctx.deps;
    const stream = eventStreamKey(keys);
    const ids: string[] = [];
    for (const n of [1, 2, 3, 4]) ids.push((await redis.xadd(stream, `${1_000_000 + n}-0`, 'n', '1'))!);
    // No worker yet: every entry is unread, the oldest added at 1,000,001 ms.
    expect(await readIngestLag(redis, keys, 1_005_001)).toEqual({
      unread: 4,
      pending: 0,
      oldestUnreadMs: 5000,
    });
    await redis.xgroup('CREATE', stream, INGEST_GROUP, '0');
    await redis.xreadgroup('GROUP', INGEST_GROUP, 'worker-1', 'COUNT', 2, 'STREAMS', stream, '>');
    // Two read and not acknowledged; the oldest unread is the third (added at 1,000,003 ms).
    expect(await readIngestLag(redis, keys, 1_005_001)).toEqual({
      unread: 2,
      pending: 2,
      oldestUnreadMs: 4998,
    });
    // Stored: acknowledged and deleted, as ingest does; the rest read too.
    await redis.xack(stream, INGEST_GROUP, ids[0]!, ids[1]!);
    await redis.xdel(stream, ids[0]!, ids[1]!);
    await redis.xreadgroup('GROUP', INGEST_GROUP, 'worker-1', 'COUNT', 10, 'STREAMS', stream, '>');
    expect(await readIngestLag(redis, keys, 1_005_001)).toEqual({ unread: 0, pending: 2, oldestUnreadMs: 0 });
  });
});

describe('the queue depths', () => {
  it('count jobs by state, and how long the next waiting job has been ready to run', async () => {
    const { redis, keys } = ctx.deps;
    const queue = new Queue('metrics-test', { connection: redis, prefix: keys.queuePrefix });
    const depths = new QueueDepths(['metrics-test', 'metrics-empty'], {
      connection: redis,
      prefix: keys.queuePrefix,
    });
    try {
      const first = await queue.add('job', { n: 1 });
      await queue.add('job', { n: 2 });
      await queue.add('later', { n: 3 }, { delay: 60_000 });
      const [busy, empty] = await depths.read(first.timestamp + 5000);
      expect(busy).toEqual({
        queue: 'metrics-test',
        jobs: { waiting: 2, prioritized: 0, active: 0, delayed: 1, failed: 0 },
        oldestWaitingMs: 5000,
      });
      expect(empty).toEqual({
        queue: 'metrics-empty',
        jobs: { waiting: 0, prioritized: 0, active: 0, delayed: 0, failed: 0 },
        oldestWaitingMs: 0,
      });
    } finally {
      await depths.close();
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });
});
