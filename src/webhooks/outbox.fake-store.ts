import { FakeAppendLog } from '../platform/fake-log.js';
import type { Queryable } from '../platform/postgres.js';
import type { FakeDeliveriesStore } from './deliveries.fake-store.js';
import type { FanOut, OutboxStore } from './outbox.store.js';
import type { WebhookEvent } from './outbox.writer.js';
import { envelope } from './signing.js';
import type { FakeWebhooksStore } from './webhooks.fake-store.js';

export interface FakeOutboxRow {
  id: number;
  workspaceId: string;
  event: WebhookEvent;
  data: Record<string, unknown>;
  createdAt: Date;
  dispatched: boolean;
}

/** The outbox in memory: tests read `rows` to see which events a change committed. */
export class FakeOutboxStore extends FakeAppendLog<FakeOutboxRow> implements OutboxStore {
  constructor(
    private readonly webhooks: FakeWebhooksStore,
    private readonly deliveries: FakeDeliveriesStore,
    now?: () => number,
  ) {
    super(now);
  }

  async append(
    tx: Queryable,
    workspaceId: string,
    event: WebhookEvent,
    data: Record<string, unknown>,
  ): Promise<number> {
    const row = this.addRow(tx, {
      id: this.nextId(),
      workspaceId,
      event,
      data: structuredClone(data),
      createdAt: new Date(this.now()),
      dispatched: false,
    });
    return row.id;
  }

  async fanOut(limit: number): Promise<FanOut> {
    const batch = this.rows.filter((r) => !r.dispatched).slice(0, limit);
    const jobs: FanOut['jobs'] = [];
    for (const row of batch) {
      const body = envelope(row.event, row.workspaceId, row.data, row.createdAt);
      for (const hook of this.webhooks.rows.values()) {
        if (hook.workspace_id !== row.workspaceId || !hook.is_active || !hook.events.includes(row.event))
          continue;
        const id = this.deliveries.insertFromOutbox(hook.id, row.workspaceId, row.id, row.event, body);
        if (id) jobs.push({ deliveryId: id, webhookId: hook.id, workspaceId: row.workspaceId, round: 1 });
      }
      row.dispatched = true;
    }
    return { claimed: batch.length, jobs };
  }
}
