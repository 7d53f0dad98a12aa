import type { Queryable } from '../platform/postgres.js';
import type { AttemptJob } from './delivery-queue.js';
import type { WebhookEvent } from './outbox.writer.js';

/** One fan-out: events claimed, and the first attempt of each delivery it created (to enqueue after it). */
export interface FanOut {
  claimed: number;
  jobs: AttemptJob[];
}

/** The webhook outbox: events written in the change's transaction, fanned out by the webhook workers. */
export interface OutboxStore {
  /** Records the event; call it inside the transaction of the change. Answers the outbox row's id. */
  append(
    tx: Queryable,
    workspaceId: string,
    event: WebhookEvent,
    data: Record<string, unknown>,
  ): Promise<number>;
  /**
   * In one transaction: claims up to `limit` undispatched events, oldest first (events another dispatcher
   * holds are skipped), creates one delivery per active webhook of the event's workspace subscribed to it
   * (a repeated fan-out of the same event creates none), and marks the events dispatched. Every webhook
   * gets the same body bytes for one event.
   */
  fanOut(limit: number): Promise<FanOut>;
}
