import type { Queryable } from '../platform/postgres.js';
import type { OutboxStore } from './outbox.store.js';
import { appendOutbox, type WebhookEvent } from './outbox.writer.js';

export class PostgresOutboxStore implements OutboxStore {
  append(
    tx: Queryable,
    workspaceId: string,
    event: WebhookEvent,
    data: Record<string, unknown>,
  ): Promise<number> {
    return appendOutbox(tx, workspaceId, event, data);
  }
}
