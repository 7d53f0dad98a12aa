import { type Db, type Queryable, transaction } from '../platform/postgres.js';
import type { AttemptJob } from './delivery-queue.js';
import type { FanOut, OutboxStore } from './outbox.store.js';
import { appendOutbox, type WebhookEvent } from './outbox.writer.js';
import { envelope } from './signing.js';

interface OutboxRow {
  id: number;
  workspace_id: string;
  event: string;
  data: unknown;
  created_at: Date;
}

export class PostgresOutboxStore implements OutboxStore {
  constructor(private readonly db: Db) {}

  append(
    tx: Queryable,
    workspaceId: string,
    event: WebhookEvent,
    data: Record<string, unknown>,
  ): Promise<number> {
    return appendOutbox(tx, workspaceId, event, data);
  }

  /** Rows are claimed with FOR UPDATE SKIP LOCKED; the unique (webhook_id, outbox_id) makes a repeat harmless. */
  fanOut(limit: number): Promise<FanOut> {
    return transaction(this.db, async (tx) => {
      const batch = await tx.query<OutboxRow>(
        `SELECT id, workspace_id, event, data, created_at FROM webhook_outbox
          WHERE dispatched_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [limit],
      );
      if (batch.rows.length === 0) return { claimed: 0, jobs: [] };
      const workspaces = [...new Set(batch.rows.map((r) => r.workspace_id))];
      const hooks = await tx.query<{ id: string; workspace_id: string; events: string[] }>(
        'SELECT id, workspace_id, events FROM webhooks WHERE workspace_id = ANY($1::uuid[]) AND is_active',
        [workspaces],
      );
      const cols = {
        webhook: [] as string[],
        ws: [] as string[],
        outbox: [] as number[],
        event: [] as string[],
        body: [] as string[],
      };
      for (const row of batch.rows) {
        let body: string | undefined;
        for (const h of hooks.rows) {
          if (h.workspace_id !== row.workspace_id || !h.events.includes(row.event)) continue;
          body ??= envelope(row.event, row.workspace_id, row.data, row.created_at);
          cols.webhook.push(h.id);
          cols.ws.push(row.workspace_id);
          cols.outbox.push(row.id);
          cols.event.push(row.event);
          cols.body.push(body);
        }
      }
      let inserted: Array<{ id: string; webhook_id: string; workspace_id: string }> = [];
      if (cols.body.length > 0) {
        const res = await tx.query<{ id: string; webhook_id: string; workspace_id: string }>(
          `INSERT INTO webhook_deliveries (webhook_id, workspace_id, outbox_id, event, body, next_attempt_at)
           SELECT w, ws, o, e, b, now()
             FROM unnest($1::uuid[], $2::uuid[], $3::bigint[], $4::text[], $5::text[]) AS t(w, ws, o, e, b)
           ON CONFLICT (webhook_id, outbox_id) DO NOTHING
           RETURNING id, webhook_id, workspace_id`,
          [cols.webhook, cols.ws, cols.outbox, cols.event, cols.body],
        );
        inserted = res.rows;
      }
      await tx.query('UPDATE webhook_outbox SET dispatched_at = now() WHERE id = ANY($1::bigint[])', [
        batch.rows.map((r) => r.id),
      ]);
      const jobs: AttemptJob[] = inserted.map((d) => ({
        deliveryId: d.id,
        webhookId: d.webhook_id,
        workspaceId: d.workspace_id,
        round: 1,
      }));
      return { claimed: batch.rows.length, jobs };
    });
  }
}
