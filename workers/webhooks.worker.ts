import { EventEmitter } from 'node:events';
import { DelayedError, type Job } from 'bullmq';
import type { WebhookGraphOptions, WorkersContainer } from '../src/container/container.types.js';
import type { AttemptOutcome, DeliveryProcessor } from '../src/webhooks/delivery.processor.js';
import {
  type AttemptChunk,
  type AttemptJob,
  FIRST_ATTEMPT_QUEUE,
  isChunk,
  RETRY_QUEUE,
} from '../src/webhooks/delivery-queue.js';
import type { OutboxDispatcher } from '../src/webhooks/outbox.dispatcher.js';
import { consumeQueue, type QueueConsumer } from './queue-consumer.js';
import { runChunk } from './webhook-chunk.js';
import type { Worker } from './worker.js';

const JOB_LOCK_MS = 15_000;
const STALLED_CHECK_MS = 5_000;

export interface WebhooksWorkerOptions extends WebhookGraphOptions {
  sweepIntervalMs?: number;
}

export interface WebhooksWorker extends Worker {
  readonly dispatcher: OutboxDispatcher;
  readonly processor: DeliveryProcessor;
  /** Re-enqueues deliveries whose job was lost; answers how many. */
  sweep(): Promise<number>;
  /** Retention: drops finished deliveries and dispatched outbox rows older than DELIVERY_RETENTION_DAYS. */
  prune(): Promise<{ deliveries: number; outbox: number }>;
  /** Attempts handed back to the queue because their endpoint was at its concurrency limit. */
  deferredAttempts(): number;
  /** Emits ('attempt', job: AttemptJob, outcome: AttemptOutcome) after each attempt job. */
  readonly events: EventEmitter;
}

/**
 * The `webhooks` role: the outbox dispatcher, two attempt lanes (first attempts on `webhooks`, retries on
 * `webhooks-retries`, splitting WEBHOOK_CONCURRENCY three to one) sharing one per-endpoint gate, and a
 * sweeper that re-enqueues deliveries whose job was lost.
 */
export function createWebhooksWorker(
  deps: WorkersContainer,
  options: WebhooksWorkerOptions = {},
): WebhooksWorker {
  const { settings, log, processor, dispatcher, scheduler, gate, upkeep, close } =
    deps.workers.webhooks(options);
  const retryShare = Math.max(1, Math.floor(settings.concurrency / 4));
  const lanes: Array<[string, number]> = [
    [FIRST_ATTEMPT_QUEUE, Math.max(1, settings.concurrency - retryShare)],
    [RETRY_QUEUE, retryShare],
  ];
  const events = new EventEmitter();
  const consumers: QueueConsumer<AttemptJob | AttemptChunk, AttemptOutcome | undefined>[] = [];
  let sweeper: NodeJS.Timeout | undefined;
  let pruner: NodeJS.Timeout | undefined;

  // The endpoint's turn ends when its request does (leave() is idempotent: `finally` covers early exits).
  const attempt = async (job: AttemptJob, leave: () => void): Promise<AttemptOutcome> => {
    const outcome = await processor.attempt(job, leave);
    events.emit('attempt', job, outcome);
    return outcome;
  };

  // A chunk's attempts (webhook-chunk.ts); when nothing could start, the job itself waits for its turn.
  const attemptChunk = async (job: Job<AttemptChunk>, token?: string): Promise<undefined> => {
    const deferred = await runChunk(job.data.attempts, {
      enter: (webhookId) => gate.enter(webhookId),
      attempt,
      handBack: (rest, retryAt) => scheduler.scheduleMany(rest, retryAt - Date.now()),
    });
    if (deferred) {
      await job.moveToDelayed(deferred.deferredAt, token);
      throw new DelayedError();
    }
    return undefined;
  };

  const handle = async (
    job: Job<AttemptJob | AttemptChunk>,
    token?: string,
  ): Promise<AttemptOutcome | undefined> => {
    if (isChunk(job.data)) return attemptChunk(job as Job<AttemptChunk>, token);
    const data = job.data;
    const turn = await gate.enter(data.webhookId);
    if (!turn.entered) {
      await job.moveToDelayed(turn.retryAt, token);
      throw new DelayedError();
    }
    try {
      return await attempt(data, turn.leave);
    } finally {
      turn.leave();
    }
  };

  return {
    name: 'webhooks',
    dispatcher,
    processor,
    sweep: () => upkeep.sweep(),
    prune: () => upkeep.prune(),
    events,
    deferredAttempts: () => gate.deferred,
    async start() {
      for (const [queue, concurrency] of lanes) {
        const consumer = consumeQueue(deps, log, 'webhook', queue, handle, {
          concurrency,
          // BullMQ renews a running job's lock every lockDuration / 2, so an attempt of any length keeps it;
          // a killed worker's attempts are found stalled and run again within about 20 s instead of a minute.
          lockDuration: JOB_LOCK_MS,
          stalledInterval: STALLED_CHECK_MS,
        });
        consumer.worker.on('failed', (job, err) =>
          log.warn({ err, jobId: job?.id, queue }, 'attempt job failed'),
        );
        consumers.push(consumer);
      }
      await dispatcher.start();
      sweeper = setInterval(() => {
        upkeep.sweep().catch((err) => log.warn({ err }, 'delivery sweep failed'));
      }, options.sweepIntervalMs ?? 30_000);
      sweeper.unref();
      pruner = setInterval(() => {
        upkeep.prune().catch((err) => log.warn({ err }, 'delivery retention failed'));
      }, 3600_000);
      pruner.unref();
    },
    async stop() {
      if (sweeper) clearInterval(sweeper);
      if (pruner) clearInterval(pruner);
      await dispatcher.stop();
      await Promise.allSettled(consumers.map((c) => c.close()));
      await close();
    },
  };
}
