import pg from 'pg';
import type { Logger } from '../platform/logger.js';
import { type Db, transaction } from '../platform/postgres.js';
import type { AttemptJob, DeliveryScheduler } from './delivery-queue.js';
import { envelope } from './signing.js';

export const OUTBOX_CHANNEL = 'webhook_outbox';

interface OutboxRow {
  id: number;
  workspace_id: string;
  event: string;
  data: unknown;
  created_at: Date;
}

export interface DispatcherOptions {
  databaseUrl: string;
  pollMs: number;
  batchSize?: number;
}

/**
 * Fans committed outbox rows out into deliveries: one per active webhook of the workspace subscribed to the
 * event. Rows are claimed with FOR UPDATE SKIP LOCKED, so several worker copies share the work; the unique
 * (webhook_id, outbox_id) makes a repeated fan-out harmless. A LISTEN on the channel the outbox trigger
 * notifies at commit wakes the loop at once; the poll is only a backstop.
 */
export class OutboxDispatcher {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private dirty = false;
  private listener: pg.Client | undefined;
  private readonly batchSize: number;

  constructor(
    private readonly db: Db,
    private readonly scheduler: DeliveryScheduler,
    private readonly log: Logger,
    private readonly options: DispatcherOptions,
  ) {
    this.batchSize = options.batchSize ?? 500;
  }

  async start(): Promise<void> {
    this.running = true;
    await this.listen();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await this.listener?.end().catch(() => {});
    this.listener = undefined;
  }

  private nudge = () => {
    this.dirty = true;
    this.wake?.();
  };

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.databaseUrl });
    client.on('notification', this.nudge);
    client.on('error', (err) => {
      this.log.warn({ err }, 'outbox listener lost; polling until it is back');
      if (this.listener === client) this.listener = undefined;
      client.end().catch(() => {});
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
      this.listener = client;
    } catch (err) {
      this.log.warn({ err }, 'outbox listener could not start; polling');
      await client.end().catch(() => {});
    }
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.dirty = false;
      let claimed = 0;
      try {
        claimed = await this.dispatchOnce();
      } catch (err) {
        this.log.error({ err }, 'outbox dispatch failed');
      }
      if (!this.running) break;
      if (claimed >= this.batchSize || this.dirty) continue;
      if (!this.listener) await this.listen();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.pollMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
        if (this.dirty || !this.running) this.wake();
      });
      this.wake = undefined;
    }
  }

  /** Fans out one batch; returns how many outbox rows it claimed. */
  async dispatchOnce(): Promise<number> {
    const { claimed, jobs } = await transaction(this.db, async (tx) => {
      const batch = await tx.query<OutboxRow>(
        `SELECT id, workspace_id, event, data, created_at FROM webhook_outbox
          WHERE dispatched_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [this.batchSize],
      );
      if (batch.rows.length === 0) return { claimed: 0, jobs: [] as AttemptJob[] };
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
      };
      const bodies: string[] = [];
      for (const row of batch.rows) {
        let body: string | undefined;
        for (const h of hooks.rows) {
          if (h.workspace_id !== row.workspace_id || !h.events.includes(row.event)) continue;
          // The body is built once per event: every endpoint gets the same bytes.
          body ??= envelope(row.event, row.workspace_id, row.data, row.created_at);
          cols.webhook.push(h.id);
          cols.ws.push(row.workspace_id);
          cols.outbox.push(row.id);
          cols.event.push(row.event);
          bodies.push(body);
        }
      }
      let inserted: Array<{ id: string; webhook_id: string; workspace_id: string }> = [];
      if (bodies.length > 0) {
        const res = await tx.query<{ id: string; webhook_id: string; workspace_id: string }>(
          `INSERT INTO webhook_deliveries (webhook_id, workspace_id, outbox_id, event, body, next_attempt_at)
           SELECT w, ws, o, e, b, now()
             FROM unnest($1::uuid[], $2::uuid[], $3::bigint[], $4::text[], $5::text[]) AS t(w, ws, o, e, b)
           ON CONFLICT (webhook_id, outbox_id) DO NOTHING
           RETURNING id, webhook_id, workspace_id`,
          [cols.webhook, cols.ws, cols.outbox, cols.event, bodies],
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
    if (jobs.length > 0) {
      // After the commit: a job must never run before its delivery is visible. A crash right here leaves
      // pending deliveries without a job; the sweeper re-enqueues them.
      await this.scheduler
        .scheduleMany(jobs)
        .catch((err) =>
          this.log.warn({ err, count: jobs.length }, 'could not enqueue deliveries; the sweeper will'),
        );
    }
    return claimed;
  }
}
