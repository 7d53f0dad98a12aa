import type { Logger } from '../platform/logger.js';
import type { DeliveriesStore } from './deliveries.store.js';
import type { AttemptJob, DeliveryScheduler } from './delivery-queue.js';

/** How long finished deliveries and their attempt logs are kept. */
export const DELIVERY_RETENTION_DAYS = 30;

/** Deliveries taken per query by the sweeper and the retention. */
const BATCH = 500;
const PRUNE_BATCH = 1000;

export interface DeliveryUpkeepDeps {
  deliveries: DeliveriesStore;
  scheduler: DeliveryScheduler;
  /** WEBHOOK_TIMEOUT_MS: an attempt is overdue only once it could no longer be running. */
  timeoutMs: number;
  log: Logger;
}

/**
 * The webhook workers' housekeeping. The sweeper re-enqueues pending deliveries whose attempt is overdue
 * (their job was lost: a crash between the commit and the enqueue, or a queue that gave up); the retention
 * drops what is finished and old.
 */
export class DeliveryUpkeep {
  constructor(private readonly deps: DeliveryUpkeepDeps) {}

  /** Answers how many deliveries it re-enqueued. */
  async sweep(): Promise<number> {
    const { deliveries, scheduler, timeoutMs, log } = this.deps;
    const overdue = await deliveries.overdue(timeoutMs + 60_000, BATCH);
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
  }

  /** Drops finished deliveries and dispatched outbox rows older than DELIVERY_RETENTION_DAYS. */
  async prune(): Promise<{ deliveries: number; outbox: number }> {
    const total = { deliveries: 0, outbox: 0 };
    for (;;) {
      const removed = await this.deps.deliveries.prune(DELIVERY_RETENTION_DAYS, PRUNE_BATCH);
      total.deliveries += removed.deliveries;
      total.outbox += removed.outbox;
      if (removed.deliveries < PRUNE_BATCH && removed.outbox < PRUNE_BATCH) return total;
    }
  }
}
