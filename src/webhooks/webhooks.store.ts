import type { Queryable } from '../platform/postgres.js';
import type { WebhookEvent } from './outbox.writer.js';

export interface WebhookRow {
  id: string;
  workspace_id: string;
  url: string;
  events: WebhookEvent[];
  is_active: boolean;
  created_at: Date;
}

const COLUMNS = 'id, workspace_id, url, events, is_active, created_at';

/** Webhook endpoints. The encrypted secret is read only by the delivery side (deliveries.store.ts). */
export class WebhooksStore {
  constructor(private readonly db: Queryable) {}

  async insert(
    workspaceId: string,
    url: string,
    events: WebhookEvent[],
    secretCiphertext: string,
  ): Promise<WebhookRow> {
    const { rows } = await this.db.query<WebhookRow>(
      `INSERT INTO webhooks (workspace_id, url, events, secret_ciphertext) VALUES ($1, $2, $3, $4)
       RETURNING ${COLUMNS}`,
      [workspaceId, url, events, secretCiphertext],
    );
    return rows[0]!;
  }

  async count(workspaceId: string): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhooks WHERE workspace_id = $1',
      [workspaceId],
    );
    return rows[0]!.n;
  }

  async list(workspaceId: string): Promise<WebhookRow[]> {
    const { rows } = await this.db.query<WebhookRow>(
      `SELECT ${COLUMNS} FROM webhooks WHERE workspace_id = $1 ORDER BY created_at, id`,
      [workspaceId],
    );
    return rows;
  }

  async get(workspaceId: string, webhookId: string): Promise<WebhookRow | undefined> {
    const { rows } = await this.db.query<WebhookRow>(
      `SELECT ${COLUMNS} FROM webhooks WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, webhookId],
    );
    return rows[0];
  }

  /**
   * Deletes the endpoint with its deliveries and attempts (ON DELETE CASCADE). Scheduled attempts find no
   * delivery and end without a request, so delivery stops at once.
   */
  async delete(workspaceId: string, webhookId: string): Promise<boolean> {
    const { rowCount } = await this.db.query('DELETE FROM webhooks WHERE workspace_id = $1 AND id = $2', [
      workspaceId,
      webhookId,
    ]);
    return rowCount === 1;
  }
}
