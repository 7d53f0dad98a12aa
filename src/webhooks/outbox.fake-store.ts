import { onRollback } from '../platform/fake-transaction.js';
import type { Queryable } from '../platform/postgres.js';
import type { OutboxStore } from './outbox.store.js';
import type { WebhookEvent } from './outbox.writer.js';

export interface FakeOutboxRow {
  id: number;
  workspaceId: string;
  event: WebhookEvent;
  data: Record<string, unknown>;
}

/** The outbox in memory: tests read `rows` to see which events a change committed. */
export class FakeOutboxStore implements OutboxStore {
  readonly rows: FakeOutboxRow[] = [];
  private nextId = 1;

  async append(
    tx: Queryable,
    workspaceId: string,
    event: WebhookEvent,
    data: Record<string, unknown>,
  ): Promise<number> {
    const row = { id: this.nextId++, workspaceId, event, data: structuredClone(data) };
    this.rows.push(row);
    onRollback(tx, () => this.rows.splice(this.rows.indexOf(row), 1));
    return row.id;
  }
}
