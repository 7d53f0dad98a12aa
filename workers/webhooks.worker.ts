import { EventEmitter } from 'node:events';
import { Worker as BullWorker, DelayedError, type Job } from 'bullmq';
import type { Config } from '../src/config/config.js';
import type { Container } from '../src/container.js';
import { createBlockingRedis, type Redis } from '../src/platform/redis.js';
import { DeliveryClient } from '../src/webhooks/delivery.client.js';
import { type AttemptOutcome, DeliveryProcessor } from '../src/webhooks/delivery.processor.js';
import { type AttemptJob, FIRST_ATTEMPT_QUEUE, RETRY_QUEUE } from '../src/webhooks/delivery-queue.js';
import { EndpointGate } from '../src/webhooks/endpoint-gate.js';
import { HoldingScheduler } from '../src/webhooks/holding-scheduler.js';
import { OutboxDispatcher } from '../src/webhooks/outbox.dispatcher.js';
import type { Worker } from './worker.js';

const JOB_LOCK_MS = 15_000;
const STALLED_CHECK_MS = 5_000;

/** How long finished deliveries and their attempt logs are kept. */
export const DELIVERY_RETENTION_DAYS = 30;

export interface WebhooksWorkerOptions {
  /** Extra CA certificates the delivery client trusts (tests deliver to a receiver with its own CA). */
  ca?: string | string[];
  /** Settings that differ from the container's configuration (tests). */
  overrides?: Partial<Config['webhooks']>;
  sweepIntervalMs?: number;
}

export interface WebhooksWorker extends Worker {
  readonly dispatcher: OutboxDispatcher;
  readonly processor: DeliveryProcessor;
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
export function createWebhooksWorker(deps: Container, options: WebhooksWorkerOptions = {}): WebhooksWorker {
  const settings = { ...deps.config.webhooks, ...options.overrides };
  const log = deps.log.child({ worker: 'webhooks' });
  const scheduler = new HoldingScheduler(deps.webhookScheduler, log);
  const client = new DeliveryClient({
    timeoutMs: settings.timeoutMs,
    allowPrivateTargets: settings.allowPrivateTargets,
    ca: options.ca,
  });
  const processor = new DeliveryProcessor({
    store: deps.stores.deliveries,
    client,
    scheduler,
    policy: {
      baseMs: settings.retryBaseMs,
      maxDelayMs: settings.retryMaxDelayMs,
      maxAttempts: settings.maxAttempts,
    },
    secretKey: settings.secretKey,
    log,
  });
  const dispatcher = new OutboxDispatcher(deps.db, scheduler, log, {
    databaseUrl: deps.config.databaseUrl,
    pollMs: settings.dispatchPollMs,
  });
  // A full endpoint's attempt waits in process up to 100 ms when a slot is expected by then.
  const gate = new EndpointGate(settings.perEndpointConcurrency, undefined, undefined, 100);
  const retryShare = Math.max(1, Math.floor(settings.concurrency / 4));
  const lanes: Array<[string, number]> = [
    [FIRST_ATTEMPT_QUEUE, Math.max(1, settings.concurrency - retryShare)],
    [RETRY_QUEUE, retryShare],
  ];
  const events = new EventEmitter();
  const bullWorkers: BullWorker[] = [];
  const connections: Redis[] = [];
  let sweeper: NodeJS.Timeout | undefined;
  let pruner: NodeJS.Timeout | undefined;

  const handle = async (job: Job<AttemptJob>, token?: string): Promise<AttemptOutcome> => {
    const turn = await gate.enter(job.data.webhookId);
    if (!turn.entered) {
      await job.moveToDelayed(turn.retryAt, token);
      throw new DelayedError();
    }
    try {
      const outcome = await processor.attempt(job.data);
      events.emit('attempt', job.data, outcome);
      return outcome;
    } finally {
      turn.leave();
    }
  };

  const sweep = async (): Promise<number> => {
    const overdue = await deps.stores.deliveries.overdue(settings.timeoutMs + 60_000, 500);
    let resubmitted = 0;
    for (const d of overdue) {
      const job: AttemptJob = {
        deliveryId: d.id,
        webhookId: d.webhook_id,
        workspaceId: d.workspace_id,
        round: d.attempts === 0 ? 1 : 2,
      };
      if (await scheduler.resubmit(job, d.attempts + 1)) resubmitted += 1;
    }
    if (resubmitted > 0) log.warn({ resubmitted }, 're-enqueued overdue deliveries');
    return resubmitted;
  };

  const prune = async () => {
    const total = { deliveries: 0, outbox: 0 };
    for (;;) {
      const removed = await deps.stores.deliveries.prune(DELIVERY_RETENTION_DAYS, 1000);
      total.deliveries += removed.deliveries;
      total.outbox += removed.outbox;
      if (removed.deliveries < 1000 && removed.outbox < 1000) return total;
    }
  };

  return {
    name: 'webhooks',
    dispatcher,
    processor,
    sweep,
    prune,
    events,
    deferredAttempts: () => gate.deferred,
    async start() {
      for (const [queue, concurrency] of lanes) {
        const connection = createBlockingRedis(deps.config.redis);
        connections.push(connection);
        const worker = new BullWorker<AttemptJob, AttemptOutcome>(queue, handle, {
          connection,
          prefix: deps.keys.queuePrefix,
          concurrency,
          // BullMQ renews a running job's lock every lockDuration / 2, so an attempt of any length keeps it;
          // a killed worker's attempts are found stalled and run again within about 20 s instead of a minute.
          lockDuration: JOB_LOCK_MS,
          stalledInterval: STALLED_CHECK_MS,
        });
        worker.on('error', (err) => log.warn({ err, queue }, 'webhook queue error'));
        worker.on('failed', (job, err) => log.warn({ err, jobId: job?.id, queue }, 'attempt job failed'));
        bullWorkers.push(worker);
      }
      await dispatcher.start();
      sweeper = setInterval(() => {
        sweep().catch((err) => log.warn({ err }, 'delivery sweep failed'));
      }, options.sweepIntervalMs ?? 30_000);
      sweeper.unref();
      pruner = setInterval(() => {
        prune().catch((err) => log.warn({ err }, 'delivery retention failed'));
      }, 3600_000);
      pruner.unref();
    },
    async stop() {
      if (sweeper) clearInterval(sweeper);
      if (pruner) clearInterval(pruner);
      await dispatcher.stop();
      await Promise.allSettled(bullWorkers.map((w) => w.close()));
      await scheduler.close();
      await Promise.allSettled(connections.map((c) => c.quit()));
      await client.close();
    },
  };
}
