import type { Queryable } from '../platform/postgres.js';

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
    return (await this.forAttempts([deliveryId]))[0];
  }

  /** forAttempt for many deliveries in one query; answers in the order asked (undefined when gone). */
  async forAttempts(deliveryIds: string[]): Promise<Array<DeliveryForAttempt | undefined>> {
    const { rows } = await this.db.query<DeliveryForAttempt>(
      `SELECT d.id, d.webhook_id, d.workspace_id, d.event, d.body, d.status, d.attempts,
              w.url, w.secret_ciphertext, w.is_active
         FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
        WHERE d.id = ANY($1::uuid[])`,
      [deliveryIds],
    );
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
    const { rows } = await this.db.query<{ id: string }>(
      `WITH input AS (
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
      [
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
    );
    const done = new Set(rows.map((r) => r.id));
    return records.map((r) => done.has(r.deliveryId));
  }

  /** Logs the attempt and moves the delivery on; false when the delivery vanished (webhook deleted). */
  async record(r: AttemptRecord): Promise<boolean> {
    return (await this.recordMany([r]))[0]!;
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

  /**
   * Retention: removes finished deliveries (with their attempts) last changed more than `days` ago, then
   * dispatched outbox rows that old which no delivery refers to. At most `limit` rows of each per call.
   */
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
