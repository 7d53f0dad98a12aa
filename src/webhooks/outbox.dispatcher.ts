import pg from 'pg';
import type { Logger } from '../platform/logger.js';
import type { DeliveryScheduler } from './delivery-queue.js';
import type { OutboxStore } from './outbox.store.js';

export const OUTBOX_CHANNEL = 'webhook_outbox';

export interface DispatcherDeps {
  outbox: OutboxStore;
  scheduler: DeliveryScheduler;
  log: Logger;
  /** Where to LISTEN for the outbox trigger's notifications (a connection of its own). */
  databaseUrl: string;
  /** The backstop poll when no notification comes. */
  pollMs: number;
  batchSize?: number;
}

/**
 * Fans committed outbox rows out into deliveries (OutboxStore.fanOut) and enqueues their first attempts.
 * Several worker copies share the work (the store skips rows another holds); a repeated fan-out is
 * harmless. A LISTEN on the channel the outbox trigger notifies at commit wakes the loop at once; the poll
 * is only a backstop.
 */
export class OutboxDispatcher {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private dirty = false;
  private listener: pg.Client | undefined;
  private readonly batchSize: number;

  constructor(private readonly deps: DispatcherDeps) {
    this.batchSize = deps.batchSize ?? 500;
  }

  async start(): Promise<void> {
    this.running = true;
    await this.listen();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await this.listener?.end().catch(() => {});
    this.listener = undefined;
  }

  private nudge = () => {
    this.dirty = true;
    this.wake?.();
  };

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.deps.databaseUrl });
    client.on('notification', this.nudge);
    client.on('error', (err) => {
      this.deps.log.warn({ err }, 'outbox listener lost; polling until it is back');
      if (this.listener === client) this.listener = undefined;
      client.end().catch(() => {});
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
      this.listener = client;
    } catch (err) {
      this.deps.log.warn({ err }, 'outbox listener could not start; polling');
      await client.end().catch(() => {});
    }
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.dirty = false;
      let claimed = 0;
      try {
        claimed = await this.dispatchOnce();
      } catch (err) {
        this.deps.log.error({ err }, 'outbox dispatch failed');
      }
      if (!this.running) break;
      if (claimed >= this.batchSize || this.dirty) continue;
      if (!this.listener) await this.listen();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.deps.pollMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
        if (this.dirty || !this.running) this.wake();
      });
      this.wake = undefined;
    }
  }

  /** Fans out one batch; returns how many outbox rows it claimed. */
  async dispatchOnce(): Promise<number> {
    const { claimed, jobs } = await this.deps.outbox.fanOut(this.batchSize);
    if (jobs.length > 0) {
      // After the commit: a job must never run before its delivery is visible. A crash right here leaves
      // pending deliveries without a job; the sweeper re-enqueues them.
      await this.deps.scheduler
        .scheduleMany(jobs)
        .catch((err) =>
          this.deps.log.warn({ err, count: jobs.length }, 'could not enqueue deliveries; the sweeper will'),
        );
    }
    return claimed;
  }
}
