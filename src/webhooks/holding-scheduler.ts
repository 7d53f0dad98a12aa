import type { Logger } from '../platform/logger.js';
import type { AttemptJob, DeliveryScheduler } from './delivery-queue.js';

interface Held {
  job: AttemptJob;
  attempt: number;
  /** When the attempt is due, epoch milliseconds. */
  dueAt: number;
}

export interface HoldingOptions {
  /** How often held attempts are offered to the queue again. */
  retryMs?: number;
  /** Attempts held at most; beyond that they are left to the sweeper (their deliveries stay pending). */
  maxHeld?: number;
}

/**
 * The workers' scheduler: an attempt the queue would not take (Redis away or restarting) is held in process
 * and offered again every second until Redis takes it, so a Redis restart delays deliveries by about the
 * length of the outage. Scheduling never fails the caller. If the process dies while holding attempts,
 * their deliveries are still pending in Postgres and the sweeper re-enqueues them.
 */
export class HoldingScheduler implements DeliveryScheduler {
  private readonly held = new Map<string, Held>();
  private timer: NodeJS.Timeout | undefined;
  private offering: Promise<void> | undefined;
  private readonly retryMs: number;
  private readonly maxHeld: number;

  constructor(
    private readonly inner: DeliveryScheduler,
    private readonly log: Logger,
    options: HoldingOptions = {},
  ) {
    this.retryMs = options.retryMs ?? 1000;
    this.maxHeld = options.maxHeld ?? 100_000;
  }

  /** Attempts waiting for the queue to come back. */
  get heldCount(): number {
    return this.held.size;
  }

  async schedule(job: AttemptJob, attemptNumber: number, delayMs = 0): Promise<void> {
    try {
      await this.inner.schedule(job, attemptNumber, delayMs);
    } catch (err) {
      this.hold([{ job, attempt: attemptNumber, dueAt: Date.now() + delayMs }], err);
    }
  }

  async scheduleMany(jobs: AttemptJob[], delayMs = 0): Promise<void> {
    try {
      await this.inner.scheduleMany(jobs, delayMs);
    } catch (err) {
      const dueAt = Date.now() + delayMs;
      this.hold(
        jobs.map((job) => ({ job, attempt: 1, dueAt })),
        err,
      );
    }
  }

  resubmit(job: AttemptJob, attemptNumber: number): Promise<boolean> {
    return this.inner.resubmit(job, attemptNumber);
  }

  /** Offers what is held one last time, then stops; the queue's own connection is closed by its owner. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.offering;
    if (this.held.size > 0) await this.offer();
    if (this.held.size > 0)
      this.log.warn({ held: this.held.size }, 'stopping with attempts not enqueued; the sweeper will');
  }

  private hold(entries: Held[], err: unknown): void {
    let dropped = 0;
    for (const entry of entries) {
      if (this.held.size >= this.maxHeld) {
        dropped += 1;
        continue;
      }
      this.held.set(`${entry.job.deliveryId}-${entry.attempt}`, entry);
    }
    this.log.warn({ err, held: this.held.size, dropped }, 'queue unavailable; holding delivery attempts');
    this.timer ??= setInterval(() => {
      this.offering ??= this.offer().finally(() => {
        this.offering = undefined;
      });
    }, this.retryMs);
    this.timer.unref();
  }

  private async offer(): Promise<void> {
    for (const [key, entry] of this.held) {
      try {
        await this.inner.schedule(entry.job, entry.attempt, Math.max(0, entry.dueAt - Date.now()));
      } catch {
        return; // still away: try again at the next tick
      }
      this.held.delete(key);
    }
    if (this.held.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
      this.log.info('queue back; every held delivery attempt enqueued');
    }
  }
}
