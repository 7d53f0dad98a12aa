import type { Queryable } from '../platform/postgres.js';
import type {
  AttemptRecord,
  AttemptRow,
  DeliveriesStore,
  DeliveryDetail,
  DeliveryForAttempt,
  DeliverySummary,
  OverdueDelivery,
} from './deliveries.store.js';

const SUMMARY = `d.id, d.event, d.status, d.attempts, d.response_status, d.next_attempt_at, d.created_at, d.updated_at,
  (SELECT a.error FROM webhook_attempts a WHERE a.delivery_id = d.id ORDER BY a.attempt DESC LIMIT 1) AS last_error`;

export class PostgresDeliveriesStore implements DeliveriesStore {
  constructor(private readonly db: Queryable) {}

  async list(webhookId: string, limit: number, offset: number): Promise<DeliverySummary[]> {
    const { rows } = await this.db.query<DeliverySummary>(
      `SELECT ${SUMMARY} FROM webhook_deliveries d WHERE d.webhook_id = $1
        ORDER BY d.created_at DESC, d.id LIMIT $2 OFFSET $3`,
      [webhookId, limit, offset],
    );
    return rows;
  }

  async get(webhookId: string, deliveryId: string): Promise<DeliveryDetail | undefined> {
    const { rows } = await this.db.query<DeliverySummary & { body: string }>(
      `SELECT ${SUMMARY}, d.body FROM webhook_deliveries d WHERE d.webhook_id = $1 AND d.id = $2`,
      [webhookId, deliveryId],
    );
    if (!rows[0]) return undefined;
    const attempts = await this.db.query<AttemptRow>(
      `SELECT attempt, started_at, duration_ms, response_status, response_body, error
         FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt`,
      [deliveryId],
    );
    return { ...rows[0], attempt_log: attempts.rows };
  }

  async insertDirect(webhookId: string, workspaceId: string, event: string, body: string): Promise<string> {
    const { rows } = await this.db.query<{ id: string }>(
      `INSERT INTO webhook_deliveries (webhook_id, workspace_id, event, body, next_attempt_at)
       VALUES ($1, $2, $3, $4, now()) RETURNING id`,
      [webhookId, workspaceId, event, body],
    );
    return rows[0]!.id;
  }

  async reopen(webhookId: string, deliveryId: string): Promise<number | 'pending' | undefined> {
    const { rows } = await this.db.query<{ attempts: number }>(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), updated_at = now()
        WHERE webhook_id = $1 AND id = $2 AND status <> 'pending' RETURNING attempts`,
      [webhookId, deliveryId],
    );
    if (rows[0]) return rows[0].attempts;
    const exists = await this.db.query('SELECT 1 FROM webhook_deliveries WHERE webhook_id = $1 AND id = $2', [
      webhookId,
      deliveryId,
    ]);
    return exists.rowCount === 1 ? 'pending' : undefined;
  }

  /** One query for all of them. */
  async forAttempts(deliveryIds: string[]): Promise<Array<DeliveryForAttempt | undefined>> {
    // Named: prepared once per connection, as they run for every batch of attempts.
    const { rows } = await this.db.query<DeliveryForAttempt>({
      name: 'deliveries-for-attempts',
      text: `SELECT d.id, d.webhook_id, d.workspace_id, d.event, d.body, d.status, d.attempts,
              w.url, w.secret_ciphertext, w.is_active
         FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
        WHERE d.id = ANY($1::uuid[])`,
      values: [deliveryIds],
    });
    const byId = new Map(rows.map((r) => [r.id, r]));
    return deliveryIds.map((id) => byId.get(id));
  }

  /**
   * record() for many attempts in one statement: the UPDATE locks each delivery row first, so a webhook
   * deleted meanwhile either finishes before (its rows are not found and nothing is logged) or waits.
   * Answers, in order, whether each attempt was recorded.
   */
  async recordMany(records: AttemptRecord[]): Promise<boolean[]> {
    const col = <T>(f: (r: AttemptRecord) => T) => records.map(f);
    const { rows } = await this.db.query<{ id: string }>({
      name: 'deliveries-record-many',
      text: `WITH input AS (
         SELECT * FROM unnest($1::uuid[], $2::int[], $3::timestamptz[], $4::int[], $5::int[], $6::text[],
                              $7::text[], $8::text[], $9::timestamptz[])
           AS t(delivery_id, attempt, started_at, duration_ms, response_status, response_body, error, status,
                next_attempt_at)
       ), moved AS (
         UPDATE webhook_deliveries d
            SET status = i.status, attempts = i.attempt, response_status = i.response_status,
                next_attempt_at = i.next_attempt_at, updated_at = now()
           FROM input i WHERE d.id = i.delivery_id
         RETURNING d.id
       ), logged AS (
         INSERT INTO webhook_attempts
           (delivery_id, attempt, started_at, duration_ms, response_status, response_body, error)
         SELECT i.delivery_id, i.attempt, i.started_at, i.duration_ms, i.response_status, i.response_body, i.error
           FROM input i JOIN moved m ON m.id = i.delivery_id
       )
       SELECT id FROM moved`,
      values: [
        col((r) => r.deliveryId),
        col((r) => r.attempt),
        col((r) => r.startedAt),
        col((r) => r.durationMs),
        col((r) => r.responseStatus),
        col((r) => r.responseBody),
        col((r) => r.error),
        col((r) => r.status),
        col((r) => r.nextAttemptAt),
      ],
    });
    const done = new Set(rows.map((r) => r.id));
    return records.map((r) => done.has(r.deliveryId));
  }

  async abandon(deliveryId: string): Promise<void> {
    await this.db.query(
      `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, updated_at = now()
        WHERE id = $1 AND status = 'pending'`,
      [deliveryId],
    );
  }

  async overdue(graceMs: number, limit: number): Promise<OverdueDelivery[]> {
    const { rows } = await this.db.query<OverdueDelivery>(
      `SELECT id, webhook_id, workspace_id, attempts FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at < now() - make_interval(secs => $1::double precision / 1000)
        ORDER BY next_attempt_at LIMIT $2`,
      [graceMs, limit],
    );
    return rows;
  }

  async prune(days: number, limit: number): Promise<{ deliveries: number; outbox: number }> {
    const deliveries = await this.db.query(
      `DELETE FROM webhook_deliveries WHERE id IN (
         SELECT id FROM webhook_deliveries
          WHERE status <> 'pending' AND updated_at < now() - make_interval(days => $1) LIMIT $2)`,
      [days, limit],
    );
    const outbox = await this.db.query(
      `DELETE FROM webhook_outbox WHERE id IN (
         SELECT o.id FROM webhook_outbox o
          WHERE o.dispatched_at < now() - make_interval(days => $1)
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.outbox_id = o.id)
          LIMIT $2)`,
      [days, limit],
    );
    return { deliveries: deliveries.rowCount ?? 0, outbox: outbox.rowCount ?? 0 };
  }
}
