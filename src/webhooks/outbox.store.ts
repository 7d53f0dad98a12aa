import type { Queryable } from '../platform/postgres.js';
import type { WebhookEvent } from './outbox.writer.js';

/** The webhook outbox: events written in the change's transaction, fanned out by the webhook workers. */
export interface OutboxStore {
  /** Records the event; call it inside the transaction of the change. Answers the outbox row's id. */
  append(
    tx: Queryable,
    workspaceId: string,
    event: WebhookEvent,
    data: Record<string, unknown>,
  ): Promise<number>;
}
