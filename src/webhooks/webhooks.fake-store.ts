import { randomUUID } from 'node:crypto';
import type { NewWebhook, WebhookRow, WebhooksStore } from './webhooks.store.js';

export interface FakeWebhook extends WebhookRow {
  secret_ciphertext: string;
}

/** Webhook endpoints in memory; the deliveries fake reads their URL, secret and state from here. */
export class FakeWebhooksStore implements WebhooksStore {
  readonly rows = new Map<string, FakeWebhook>();

  constructor(private readonly now: () => number = Date.now) {}

  async insert(hook: NewWebhook): Promise<WebhookRow> {
    const row: FakeWebhook = {
      id: randomUUID(),
      workspace_id: hook.workspaceId,
      url: hook.url,
      events: hook.events,
      is_active: true,
      created_at: new Date(this.now()),
      secret_ciphertext: hook.secretCiphertext,
    };
    this.rows.set(row.id, row);
    return publicRow(row);
  }

  async count(workspaceId: string): Promise<number> {
    return (await this.list(workspaceId)).length;
  }

  async list(workspaceId: string): Promise<WebhookRow[]> {
    return [...this.rows.values()].filter((r) => r.workspace_id === workspaceId).map(publicRow);
  }

  async get(workspaceId: string, webhookId: string): Promise<WebhookRow | undefined> {
    const row = this.rows.get(webhookId);
    return row?.workspace_id === workspaceId ? publicRow(row) : undefined;
  }

  async delete(workspaceId: string, webhookId: string): Promise<boolean> {
    if (this.rows.get(webhookId)?.workspace_id !== workspaceId) return false;
    return this.rows.delete(webhookId);
  }
}

function publicRow({ secret_ciphertext: _secret, ...row }: FakeWebhook): WebhookRow {
  return { ...row, events: [...row.events] };
}
