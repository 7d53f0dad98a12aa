import type { WebhookEvent } from './outbox.writer.js';

export interface WebhookRow {
  id: string;
  workspace_id: string;
  url: string;
  events: WebhookEvent[];
  is_active: boolean;
  created_at: Date;
}

/** A new endpoint; the secret arrives already encrypted (the store never sees it in clear). */
export interface NewWebhook {
  workspaceId: string;
  url: string;
  events: WebhookEvent[];
  secretCiphertext: string;
}

/** Webhook endpoints. The encrypted secret is read only by the delivery side (the deliveries store). */
export interface WebhooksStore {
  insert(hook: NewWebhook): Promise<WebhookRow>;
  count(workspaceId: string): Promise<number>;
  /** Oldest first. */
  list(workspaceId: string): Promise<WebhookRow[]>;
  get(workspaceId: string, webhookId: string): Promise<WebhookRow | undefined>;
  /**
   * Deletes the endpoint with its deliveries and attempts. Scheduled attempts find no delivery and end
   * without a request, so delivery stops at once. False when there was no such webhook.
   */
  delete(workspaceId: string, webhookId: string): Promise<boolean>;
}
