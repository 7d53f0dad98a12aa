import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transaction } from '../../../src/platform/postgres.js';
import { createBlockingRedis } from '../../../src/platform/redis.js';
import {
  type AttemptChunk,
  type AttemptJob,
  BullDeliveryScheduler,
  CHUNK_SIZE,
  FIRST_ATTEMPT_QUEUE,
} from '../../../src/webhooks/delivery-queue.js';
import { appendOutbox } from '../../../src/webhooks/outbox.writer.js';
import { createWebhooksWorker, type WebhooksWorker } from '../../../workers/webhooks.worker.js';
import { fileContext, type SignedIn, signUp } from '../../helpers/context.js';
import { HttpsReceiver, waitFor } from '../../helpers/https-receiver.js';

// First attempts travel in chunks per webhook (one queue job for up to CHUNK_SIZE deliveries); a chunk
// whose endpoint is full hands the rest back to the queue, and every delivery is still made once.
describe('webhook first attempts in chunks', () => {
  const ctx = fileContext({
    env: {
      // The receiver listens on loopback.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_TIMEOUT_MS: '5000',
      WEBHOOK_DISPATCH_POLL_MS: '200',
      WEBHOOK_RETRY_BASE_MS: '1000',
    },
  });

  it('enqueues one job per chunk of a webhook, each webhook in its own chunks, in fan-out order', async () => {
    const scheduler = new BullDeliveryScheduler(ctx.config.redis, ctx.deps.keys);
    const connection = createBlockingRedis(ctx.config.redis);
    const queue = new Queue(FIRST_ATTEMPT_QUEUE, { connection, prefix: ctx.deps.keys.queuePrefix });
    try {
      const attempt = (webhookId: string, i: number): AttemptJob => ({
        deliveryId: `${webhookId}-d${String(i).padStart(3, '0')}`,
        webhookId,
        workspaceId: 'w',
        round: 1,
      });
      // Interleaved as a fan-out makes them: each event to both webhooks.
      const jobs = Array.from({ length: 60 }, (_, i) => [attempt('a', i), attempt('b', i)]).flat();
      await scheduler.scheduleMany(jobs);
      await scheduler.scheduleMany(jobs); // the same fan-out enqueued again: no new jobs

      const waiting = await queue.getJobs(['waiting']);
      const chunks = waiting.map((j) => (j.data as AttemptChunk).attempts);
      expect(chunks).toHaveLength(6); // 25 + 25 + 10 for each webhook
      for (const chunk of chunks) {
        expect(chunk.length).toBeLessThanOrEqual(CHUNK_SIZE);
        expect(new Set(chunk.map((a) => a.webhookId)).size).toBe(1);
      }
      for (const webhook of ['a', 'b']) {
        const ids = chunks
          .filter((c) => c[0]?.webhookId === webhook)
          .sort((x, y) => x[0]!.deliveryId.localeCompare(y[0]!.deliveryId))
          .flat()
          .map((a) => a.deliveryId);
        expect(ids).toEqual(jobs.filter((j) => j.webhookId === webhook).map((j) => j.deliveryId));
      }
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
      await connection.quit();
      await scheduler.close();
    }
  });

  describe('with an endpoint slower than the gate waits', () => {
    let receiver: HttpsReceiver;
    let worker: WebhooksWorker;
    let owner: SignedIn;

    beforeAll(async () => {
      receiver = await new HttpsReceiver().start();
      // One request at a time, each answered after 300 ms: the gate waits at most 100 ms for a slot, so a
      // chunk keeps handing its rest back to the queue.
      receiver.fallback = { status: 200, delayMs: 300 };
      worker = createWebhooksWorker(ctx.deps, {
        ca: receiver.cert,
        overrides: { perEndpointConcurrency: 1 },
      });
      await worker.start();
      owner = await signUp(ctx.app);
    });
    afterAll(async () => {
      await worker?.stop();
      await receiver?.close();
    });

    it('hands the rest of a chunk back to the queue and makes every delivery once', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/api/v1/workspaces/${owner.workspaceId}/webhooks`,
        headers: owner.headers,
        payload: { url: receiver.url('/slow'), events: ['release.pushed'] },
      });
      expect(res.statusCode).toBe(201);
      receiver.expect('/slow', res.json().secret);

      const events = 12;
      await transaction(ctx.deps.db, async (tx) => {
        for (let i = 0; i < events; i++) {
          await appendOutbox(tx, owner.workspaceId, 'release.pushed', { version: `1.0.${i}` });
        }
      });
      await waitFor(() => receiver.at('/slow').length >= events, 60_000, 'every delivery made');
      const ids = receiver.at('/slow').map((r) => r.headers['x-service-delivery']);
      expect(new Set(ids).size).toBe(events);
      expect(receiver.at('/slow').every((r) => r.verified)).toBe(true);
      expect(worker.deferredAttempts()).toBeGreaterThan(0);
      await waitFor(
        async () => {
          const rows = (
            await ctx.deps.db.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM webhook_deliveries WHERE workspace_id = $1 AND status = 'succeeded' AND attempts = 1",
              [owner.workspaceId],
            )
          ).rows;
          return rows[0]!.n === events;
        },
        10_000,
        'every delivery logged as one successful attempt',
      );
      const done = await ctx.deps.db.query<{ status: string; attempts: number }>(
        'SELECT status, attempts FROM webhook_deliveries WHERE workspace_id = $1',
        [owner.workspaceId],
      );
      expect(done.rows).toHaveLength(events);
      // No request was sent twice: the receiver saw exactly one per delivery.
      expect(receiver.at('/slow')).toHaveLength(events);
    });
  });

  it('skips a second job for an attempt already made: the sweeper re-enqueuing a delivery still in a chunk', async () => {
    const receiver = await new HttpsReceiver().start();
    const worker = createWebhooksWorker(ctx.deps, { ca: receiver.cert });
    const scheduler = new BullDeliveryScheduler(ctx.config.redis, ctx.deps.keys);
    try {
      const owner = await signUp(ctx.app);
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/api/v1/workspaces/${owner.workspaceId}/webhooks`,
        headers: owner.headers,
        payload: { url: receiver.url('/flaky'), events: ['release.pushed'] },
      });
      receiver.expect('/flaky', res.json().secret);
      receiver.script('/flaky', { status: 500 }, { status: 500 });
      await transaction(ctx.deps.db, (tx) =>
        appendOutbox(tx, owner.workspaceId, 'release.pushed', { version: '1.0.0' }),
      );
      // The fan-out enqueues the delivery's first attempt in a chunk; then the same first attempt is
      // enqueued on its own, due a little later, as the sweeper does for a delivery it finds overdue.
      await worker.dispatcher.dispatchOnce();
      const delivery = (
        await ctx.deps.db.query<{ id: string; webhook_id: string }>(
          'SELECT id, webhook_id FROM webhook_deliveries WHERE workspace_id = $1',
          [owner.workspaceId],
        )
      ).rows[0]!;
      const single: AttemptJob = {
        deliveryId: delivery.id,
        webhookId: delivery.webhook_id,
        workspaceId: owner.workspaceId,
        round: 1,
      };
      await scheduler.schedule(single, 1, 300);
      const outcomes: string[] = [];
      worker.events.on('attempt', (job: AttemptJob, outcome: string) => {
        if (job.deliveryId === delivery.id) outcomes.push(outcome);
      });
      await worker.start();

      await waitFor(() => outcomes.includes('succeeded'), 30_000, 'the delivery made after its retries');
      // Attempt 1 fails, attempts 2 (fails) and 3 (succeeds) come from the retry schedule, and the second
      // job for attempt 1 is skipped (it would have made attempt 2 at once, ahead of the backoff). It is
      // skipped whenever it runs: while attempt 1 is still in flight (a slow machine) or after it.
      expect(outcomes.filter((o) => o !== 'stale')).toEqual(['retrying', 'retrying', 'succeeded']);
      expect(outcomes.filter((o) => o === 'stale')).toHaveLength(1);
      expect(receiver.at('/flaky')).toHaveLength(3);
      const logged = await ctx.deps.db.query('SELECT attempt FROM webhook_attempts WHERE delivery_id = $1', [
        delivery.id,
      ]);
      expect(logged.rows.map((r) => r.attempt).sort()).toEqual([1, 2, 3]);
    } finally {
      await worker.stop();
      await scheduler.close();
      await receiver.close();
    }
  });
});
