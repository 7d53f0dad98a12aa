import type { Queryable } from '../platform/postgres.js';
import type { NewWebhook, WebhookRow, WebhooksStore } from './webhooks.store.js';

const COLUMNS = 'id, workspace_id, url, events, is_active, created_at';

export class PostgresWebhooksStore implements WebhooksStore {
  constructor(private readonly db: Queryable) {}

  async insert(hook: NewWebhook): Promise<WebhookRow> {
    const { rows } = await this.db.query<WebhookRow>(
      `INSERT INTO webhooks (workspace_id, url, events, secret_ciphertext) VALUES ($1, $2, $3, $4)
       RETURNING ${COLUMNS}`,
      [hook.workspaceId, hook.url, hook.events, hook.secretCiphertext],
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

  /** Deliveries and attempts go with it (ON DELETE CASCADE). */
  async delete(workspaceId: string, webhookId: string): Promise<boolean> {
    const { rowCount } = await this.db.query('DELETE FROM webhooks WHERE workspace_id = $1 AND id = $2', [
      workspaceId,
      webhookId,
    ]);
    return rowCount === 1;
  }
}
