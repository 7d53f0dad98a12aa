import { PG_FOREIGN_KEY_VIOLATION, pgCode, type Queryable } from '../platform/postgres.js';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface DeliverySummary {
  id: string;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  response_status: number | null;
  next_attempt_at: Date | null;
  created_at: Date;
  updated_at: Date;
  last_error: string | null;
}

export interface AttemptRow {
  attempt: number;
  started_at: Date;
  duration_ms: number;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
}

/** What an attempt needs, read in one query right before it: a deleted webhook yields nothing. */
export interface DeliveryForAttempt {
  id: string;
  webhook_id: string;
  workspace_id: string;
  event: string;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  url: string;
  secret_ciphertext: string;
  is_active: boolean;
}

export interface AttemptRecord {
  deliveryId: string;
  attempt: number;
  startedAt: Date;
  durationMs: number;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
}

const SUMMARY = `d.id, d.event, d.status, d.attempts, d.response_status, d.next_attempt_at, d.created_at, d.updated_at,
  (SELECT a.error FROM webhook_attempts a WHERE a.delivery_id = d.id ORDER BY a.attempt DESC LIMIT 1) AS last_error`;

export class DeliveriesStore {
  constructor(private readonly db: Queryable) {}

  async list(webhookId: string, limit: number, offset: number): Promise<DeliverySummary[]> {
    const { rows } = await this.db.query<DeliverySummary>(
      `SELECT ${SUMMARY} FROM webhook_deliveries d WHERE d.webhook_id = $1
        ORDER BY d.created_at DESC, d.id LIMIT $2 OFFSET $3`,
      [webhookId, limit, offset],
    );
    return rows;
  }

  async get(
    webhookId: string,
    deliveryId: string,
  ): Promise<(DeliverySummary & { body: string; attempt_log: AttemptRow[] }) | undefined> {
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

  /** A delivery outside the outbox (the `ping` of the test operation). */
  async insertDirect(webhookId: string, workspaceId: string, event: string, body: string): Promise<string> {
    const { rows } = await this.db.query<{ id: string }>(
      `INSERT INTO webhook_deliveries (webhook_id, workspace_id, event, body, next_attempt_at)
       VALUES ($1, $2, $3, $4, now()) RETURNING id`,
      [webhookId, workspaceId, event, body],
    );
    return rows[0]!.id;
  }

  /**
   * Puts a finished delivery back to pending for a new round of attempts. Returns the attempts made so far,
   * 'pending' when it is still in progress, or undefined when there is no such delivery.
   */
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

  async forAttempt(deliveryId: string): Promise<DeliveryForAttempt | undefined> {
    const { rows } = await this.db.query<DeliveryForAttempt>(
      `SELECT d.id, d.webhook_id, d.workspace_id, d.event, d.body, d.status, d.attempts,
              w.url, w.secret_ciphertext, w.is_active
         FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
        WHERE d.id = $1`,
      [deliveryId],
    );
    return rows[0];
  }

  /**
   * Logs the attempt and moves the delivery on, in one statement. False when the delivery vanished
   * meanwhile (its webhook was deleted during the request).
   */
  async record(r: AttemptRecord): Promise<boolean> {
    try {
      const { rowCount } = await this.db.query(
        `WITH logged AS (
           INSERT INTO webhook_attempts
             (delivery_id, attempt, started_at, duration_ms, response_status, response_body, error)
           VALUES ($1, $2, $3, $4, $5, $6, $7)
         )
         UPDATE webhook_deliveries
            SET status = $8, attempts = $2, response_status = $5, next_attempt_at = $9, updated_at = now()
          WHERE id = $1`,
        [
          r.deliveryId,
          r.attempt,
          r.startedAt,
          r.durationMs,
          r.responseStatus,
          r.responseBody,
          r.error,
          r.status,
          r.nextAttemptAt,
        ],
      );
      return rowCount === 1;
    } catch (err) {
      if (pgCode(err) === PG_FOREIGN_KEY_VIOLATION) return false;
      throw err;
    }
  }

  /** Ends a delivery whose webhook is no longer active, without a request. */
  async abandon(deliveryId: string): Promise<void> {
    await this.db.query(
      `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, updated_at = now()
        WHERE id = $1 AND status = 'pending'`,
      [deliveryId],
    );
  }

  /** Pending deliveries whose attempt is overdue by more than graceMs: their job was lost. */
  async overdue(
    graceMs: number,
    limit: number,
  ): Promise<Array<{ id: string; webhook_id: string; workspace_id: string; attempts: number }>> {
    const { rows } = await this.db.query<{
      id: string;
      webhook_id: string;
      workspace_id: string;
      attempts: number;
    }>(
      `SELECT id, webhook_id, workspace_id, attempts FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at < now() - make_interval(secs => $1::double precision / 1000)
        ORDER BY next_attempt_at LIMIT $2`,
      [graceMs, limit],
    );
    return rows;
  }
}
