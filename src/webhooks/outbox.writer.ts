import { WEBHOOK_EVENTS, type WebhookEvent } from '@ota/shared/contracts';
import type { Queryable } from '../platform/postgres.js';

export { WEBHOOK_EVENTS, type WebhookEvent };

/**
 * Records a webhook event in the outbox. Call it inside the transaction of the change, so the event exists
 * exactly when the change does; the webhook workers fan it out to subscribed endpoints.
 */
export async function appendOutbox(
  tx: Queryable,
  workspaceId: string,
  event: WebhookEvent,
  data: Record<string, unknown>,
): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    'INSERT INTO webhook_outbox (workspace_id, event, data) VALUES ($1, $2, $3) RETURNING id',
    [workspaceId, event, JSON.stringify(data)],
  );
  return rows[0]!.id;
}
