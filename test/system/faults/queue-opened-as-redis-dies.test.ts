import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDependencyUnavailable } from '../../../src/platform/dependency-errors.js';
import { QUEUES } from '../../../src/platform/queues.js';
import { createRedis, type Redis, RedisKeys } from '../../../src/platform/redis.js';
import { QueueSpikeNotifier, spikeJobId } from '../../../src/spikes/spike-jobs.js';
import {
  type AttemptJob,
  attemptJobId,
  BullDeliveryScheduler,
  RETRY_QUEUE,
} from '../../../src/webhooks/delivery-queue.js';
import { eventually } from '../support/checks.js';
import { PrivateRedis } from '../support/private-redis.js';

// A producer's queue opened in the instant Redis dies: the connection still looks ready, so BullMQ's
// check of the new queue (it asks Redis for its version) goes out and fails. Found as webhook retries
// that were never enqueued after a Redis restart: every later add of that queue failed with the
// first error, though Redis was back and the other queue on the same connection worked.
let redis: PrivateRedis;
let keys: RedisKeys;
let reader: Redis;

beforeAll(async () => {
  redis = await PrivateRedis.start();
  keys = new RedisKeys(`queue-open-${randomUUID().slice(0, 8)}`);
  reader = createRedis(redis.url);
  reader.on('error', () => {});
}, 60_000);

afterAll(async () => {
  reader?.disconnect();
  await redis?.close();
});

/** Freezes Redis, runs `open` (which makes a queue and uses it), then kills Redis and starts it again. */
async function openWhileRedisDies(open: () => Promise<unknown>): Promise<void> {
  redis.freeze();
  const first = open();
  await redis.kill('SIGKILL');
  await expect(first).rejects.toThrow();
  await redis.restart();
}

/** Retries `use` until it succeeds; the client reconnects on its own schedule (up to 2 s apart). */
function succeedsAgain(what: string, use: () => Promise<unknown>): Promise<true> {
  return eventually(
    what,
    () =>
      use().then(
        () => true as const,
        () => undefined,
      ),
    20_000,
  );
}

async function jobExists(queueName: string, id: string): Promise<boolean> {
  const queue = new Queue(queueName, { connection: reader, prefix: keys.queuePrefix });
  try {
    return (await queue.getJob(id)) !== undefined;
  } finally {
    await queue.close();
  }
}

describe('a job queue first used as Redis dies', () => {
  it('webhook retries: the retry lane opened then takes attempts once Redis is back', async () => {
    const scheduler = new BullDeliveryScheduler({ url: redis.url, cluster: false }, keys);
    try {
      const job = (round: number): AttemptJob => ({
        deliveryId: randomUUID(),
        webhookId: randomUUID(),
        workspaceId: randomUUID(),
        round,
      });
      // The first-attempt lane opens while Redis is up: the connection exists and looks ready.
      await scheduler.schedule(job(1), 1);
      const retry = job(2);
      await openWhileRedisDies(() => scheduler.schedule(retry, 2, 60_000));
      await succeedsAgain('the retry enqueued after the restart', () => scheduler.schedule(retry, 2, 60_000));
      expect(await jobExists(RETRY_QUEUE, attemptJobId(retry, 2))).toBe(true);
    } finally {
      await scheduler.close();
    }
  }, 90_000);

  it('spike evaluations: a notifier made then asks for evaluations once Redis is back', async () => {
    const connection = createRedis(redis.url);
    connection.on('error', () => {});
    let notifier: QueueSpikeNotifier | undefined;
    try {
      await connection.ping();
      const appId = randomUUID();
      await openWhileRedisDies(async () => {
        notifier = new QueueSpikeNotifier(connection, keys);
        await notifier.notify([appId], '1-0');
      });
      await succeedsAgain('the evaluation enqueued after the restart', () =>
        notifier!.notify([appId], '2-0'),
      );
      expect(await jobExists(QUEUES.spikes, spikeJobId(appId, '2-0'))).toBe(true);
    } finally {
      await notifier?.close().catch(() => {});
      connection.disconnect();
    }
  }, 90_000);

  it('a queue first used while Redis is away answers with an error the API takes for that, not a wait', async () => {
    const connection = createRedis(redis.url);
    connection.on('error', () => {});
    const notifier = new QueueSpikeNotifier(connection, keys);
    try {
      await connection.ping();
      await redis.kill('SIGKILL');
      await eventually('the connection to notice', async () =>
        connection.status !== 'ready' ? true : undefined,
      );
      // Before: BullMQ's check of a queue made now waited for Redis without end, and the caller with it.
      const appId = randomUUID();
      const away = await notifier.notify([appId], '3-0').then(
        () => 'stored',
        (err: unknown) => err,
      );
      expect(isDependencyUnavailable(away)).toBe(true);
      await redis.restart();
      await succeedsAgain('the evaluation enqueued after the restart', () => notifier.notify([appId], '4-0'));
      expect(await jobExists(QUEUES.spikes, spikeJobId(appId, '4-0'))).toBe(true);
    } finally {
      await notifier.close().catch(() => {});
      connection.disconnect();
    }
  }, 90_000);
});
