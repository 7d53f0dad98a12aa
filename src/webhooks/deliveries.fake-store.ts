import { randomUUID } from 'node:crypto';
import type { AttemptRecord, AttemptRow, DeliveriesStore, DeliverySummary } from './deliveries.store.js';
import type { FakeWebhooksStore } from './webhooks.fake-store.js';

interface FakeDelivery extends Omit<DeliverySummary, 'last_error'> {
  webhook_id: string;
  workspace_id: string;
  outbox_id: number | null;
  body: string;
  log: AttemptRow[];
}

const DAY_MS = 86_400_000;

/**
 * Deliveries in memory; answers are checked against the interface by `implements`, where their shapes are
 * written once. A delivery whose webhook is no longer in the webhooks fake is gone, as the
 * cascade makes it in Postgres. Outbox rows are the outbox fake's: prune reports none of them.
 */
export class FakeDeliveriesStore implements DeliveriesStore {
  readonly rows = new Map<string, FakeDelivery>();

  constructor(
    private readonly webhooks: FakeWebhooksStore,
    private readonly now: () => number = Date.now,
  ) {}

  private live(deliveryId: string, webhookId?: string): FakeDelivery | undefined {
    const d = this.rows.get(deliveryId);
    if (!d || !this.webhooks.rows.has(d.webhook_id)) return undefined;
    return webhookId === undefined || d.webhook_id === webhookId ? d : undefined;
  }

  async list(webhookId: string, limit: number, offset: number): Promise<DeliverySummary[]> {
    return [...this.rows.values()]
      .filter((d) => this.live(d.id, webhookId))
      .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || a.id.localeCompare(b.id))
      .slice(offset, offset + limit)
      .map(summary);
  }

  async get(webhookId: string, deliveryId: string) {
    const d = this.live(deliveryId, webhookId);
    return d && { ...summary(d), body: d.body, attempt_log: d.log.map((a) => ({ ...a })) };
  }

  async insertDirect(webhookId: string, workspaceId: string, event: string, body: string): Promise<string> {
    return this.insert(webhookId, workspaceId, null, event, body);
  }

  /** The outbox fake's fan-out: one delivery per webhook and event; undefined when it exists already. */
  insertFromOutbox(
    webhookId: string,
    workspaceId: string,
    outboxId: number,
    event: string,
    body: string,
  ): string | undefined {
    for (const d of this.rows.values())
      if (d.webhook_id === webhookId && d.outbox_id === outboxId) return undefined;
    return this.insert(webhookId, workspaceId, outboxId, event, body);
  }

  private insert(
    webhookId: string,
    workspaceId: string,
    outboxId: number | null,
    event: string,
    body: string,
  ): string {
    const at = new Date(this.now());
    const id = randomUUID();
    this.rows.set(id, {
      id,
      webhook_id: webhookId,
      workspace_id: workspaceId,
      outbox_id: outboxId,
      event,
      body,
      status: 'pending',
      attempts: 0,
      response_status: null,
      next_attempt_at: at,
      created_at: at,
      updated_at: at,
      log: [],
    });
    return id;
  }

  async reopen(webhookId: string, deliveryId: string): Promise<number | 'pending' | undefined> {
    const d = this.live(deliveryId, webhookId);
    if (!d) return undefined;
    if (d.status === 'pending') return 'pending';
    Object.assign(d, {
      status: 'pending',
      next_attempt_at: new Date(this.now()),
      updated_at: new Date(this.now()),
    });
    return d.attempts;
  }

  async forAttempts(deliveryIds: string[]) {
    return deliveryIds.map((id) => {
      const d = this.live(id);
      const w = d && this.webhooks.rows.get(d.webhook_id);
      if (!d || !w) return undefined;
      const { id: _id, webhook_id, workspace_id, event, body, status, attempts } = d;
      return {
        id,
        webhook_id,
        workspace_id,
        event,
        body,
        status,
        attempts,
        url: w.url,
        secret_ciphertext: w.secret_ciphertext,
        is_active: w.is_active,
      };
    });
  }

  async recordMany(records: AttemptRecord[]): Promise<boolean[]> {
    return records.map((r) => {
      const d = this.live(r.deliveryId);
      if (!d) return false;
      Object.assign(d, {
        status: r.status,
        attempts: r.attempt,
        response_status: r.responseStatus,
        next_attempt_at: r.nextAttemptAt,
        updated_at: new Date(this.now()),
      });
      d.log.push({
        attempt: r.attempt,
        started_at: r.startedAt,
        duration_ms: r.durationMs,
        response_status: r.responseStatus,
        response_body: r.responseBody,
        error: r.error,
      });
      return true;
    });
  }

  async abandon(deliveryId: string): Promise<void> {
    const d = this.live(deliveryId);
    if (d?.status === 'pending')
      Object.assign(d, { status: 'failed', next_attempt_at: null, updated_at: new Date(this.now()) });
  }

  async overdue(graceMs: number, limit: number) {
    const before = this.now() - graceMs;
    return [...this.rows.values()]
      .filter(
        (d) =>
          this.live(d.id) &&
          d.status === 'pending' &&
          d.next_attempt_at &&
          d.next_attempt_at.getTime() < before,
      )
      .sort((a, b) => a.next_attempt_at!.getTime() - b.next_attempt_at!.getTime())
      .slice(0, limit)
      .map(({ id, webhook_id, workspace_id, attempts }) => ({ id, webhook_id, workspace_id, attempts }));
  }

  async prune(days: number, limit: number): Promise<{ deliveries: number; outbox: number }> {
    const before = this.now() - days * DAY_MS;
    const old = [...this.rows.values()]
      .filter((d) => d.status !== 'pending' && d.updated_at.getTime() < before)
      .slice(0, limit);
    for (const d of old) this.rows.delete(d.id);
    return { deliveries: old.length, outbox: 0 };
  }
}

function summary(d: FakeDelivery): DeliverySummary {
  const { webhook_id: _w, workspace_id: _ws, outbox_id: _o, body: _b, log, ...rest } = d;
  return { ...rest, last_error: log.at(-1)?.error ?? null };
}
