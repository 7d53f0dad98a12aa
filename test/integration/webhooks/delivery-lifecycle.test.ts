import { describe, expect, it } from 'vitest';
import { expectProblem } from '../../helpers/context.js';
import { waitFor } from '../../helpers/https-receiver.js';
import { deliveryHarness, SAMPLES } from './delivery-harness.js';

const { h, webhook, emit, deliveries, outcome } = deliveryHarness();

describe('webhook delivery lifecycle', () => {
  it('records nothing and schedules nothing when the webhook is deleted during an attempt', async () => {
    const hook = await webhook(['rollback']);
    h.receiver.script(hook.path, 'hang');
    await emit(h.owner.workspaceId, 'rollback', SAMPLES.rollback);
    await waitFor(() => h.receiver.at(hook.path).length === 1, 10_000, 'attempt in flight');
    const [row] = await deliveries(hook.id);
    const gone = outcome(row.id, 'gone');
    expect(
      (await h.ctx.app.inject({ method: 'DELETE', url: hook.api, headers: h.owner.headers })).statusCode,
    ).toBe(204);
    await gone; // the attempt timed out, found its delivery gone, and scheduled no retry
    const attempts = await h.ctx.deps.db.query(
      'SELECT count(*)::int AS n FROM webhook_attempts WHERE delivery_id = $1',
      [row.id],
    );
    expect(attempts.rows[0].n).toBe(0);
    expect(h.receiver.at(hook.path)).toHaveLength(1);
  });

  it('sends a ping, and redelivers a finished delivery with the same id and bytes', async () => {
    const hook = await webhook(['error_spike']);
    const res = await h.ctx.app.inject({ method: 'POST', url: `${hook.api}/test`, headers: h.owner.headers });
    expect(res.statusCode).toBe(202);
    const { delivery_id } = res.json();
    const ping = await waitFor(() => h.receiver.at(hook.path)[0], 10_000, 'ping');
    expect(ping.verified).toBe(true);
    expect(ping.headers['x-service-event']).toBe('ping');
    expect(ping.headers['x-service-delivery']).toBe(delivery_id);
    const body = JSON.parse(ping.raw.toString());
    expect(body).toMatchObject({ event: 'ping', workspace_id: h.owner.workspaceId });
    expect(body.data).toEqual({ webhook_id: hook.id, message: expect.any(String) });

    await waitFor(async () => (await deliveries(hook.id))[0]?.status === 'succeeded', 5000, 'ping recorded');
    const again = await h.ctx.app.inject({
      method: 'POST',
      url: `${hook.api}/deliveries/${delivery_id}/redeliver`,
      headers: h.owner.headers,
    });
    expect(again.statusCode).toBe(202);
    await waitFor(() => h.receiver.at(hook.path).length === 2, 10_000, 'redelivery');
    const second = h.receiver.at(hook.path)[1]!;
    expect(second.headers['x-service-delivery']).toBe(delivery_id);
    expect(second.raw.equals(ping.raw)).toBe(true);
    const [row] = await waitFor(async () => {
      const rows = await deliveries(hook.id);
      return rows[0]?.attempts === 2 && rows[0].status === 'succeeded' ? rows : undefined;
    });
    expect(row.id).toBe(delivery_id);

    // A delivery still in progress cannot be redelivered; an unknown one is 404.
    h.receiver.script(hook.path, 'hang');
    await h.ctx.app.inject({
      method: 'POST',
      url: `${hook.api}/deliveries/${delivery_id}/redeliver`,
      headers: h.owner.headers,
    });
    const busy = await h.ctx.app.inject({
      method: 'POST',
      url: `${hook.api}/deliveries/${delivery_id}/redeliver`,
      headers: h.owner.headers,
    });
    expectProblem(busy, 409, 'delivery_pending');
    const unknown = await h.ctx.app.inject({
      method: 'POST',
      url: `${hook.api}/deliveries/00000000-0000-4000-8000-000000000000/redeliver`,
      headers: h.owner.headers,
    });
    expectProblem(unknown, 404);
  });

  it('re-enqueues a delivery whose job was lost', async () => {
    const hook = await webhook(['rollback']);
    // A delivery with no job, overdue (as after a crash between commit and enqueue).
    await h.ctx.deps.db.query(
      `INSERT INTO webhook_deliveries (webhook_id, workspace_id, event, body, next_attempt_at)
       VALUES ($1, $2, 'rollback', '{"event":"rollback"}', now() - interval '1 hour')`,
      [hook.id, h.owner.workspaceId],
    );
    expect(await h.worker.sweep()).toBe(1);
    await waitFor(() => h.receiver.at(hook.path).length === 1, 10_000, 'swept delivery');
  });

  it('fails a delivery at once when its secret cannot be decrypted, sending nothing', async () => {
    const hook = await webhook(['rollback']);
    await h.ctx.deps.db.query('UPDATE webhooks SET secret_ciphertext = $2 WHERE id = $1', [
      hook.id,
      'v1.AAAA.BBBB.CCCC',
    ]);
    await emit(h.owner.workspaceId, 'rollback', SAMPLES.rollback);
    const [row] = await waitFor(
      async () => {
        const rows = await deliveries(hook.id);
        return rows[0]?.status === 'failed' ? rows : undefined;
      },
      10_000,
      'failure',
    );
    expect(row.attempts).toBe(1);
    expect(h.receiver.at(hook.path)).toHaveLength(0);
  });

  it('keeps finished deliveries 30 days, pending ones and recent ones longer', async () => {
    const hook = await webhook(['rollback']);
    const ws = h.owner.workspaceId;
    const outboxId = await emit(ws, 'rollback', SAMPLES.rollback);
    await waitFor(async () => (await deliveries(hook.id))[0]?.status === 'succeeded', 10_000, 'delivery');
    const insert = (status: string, age: string) =>
      h.ctx.deps.db.query(
        `INSERT INTO webhook_deliveries (webhook_id, workspace_id, event, body, status, updated_at)
         VALUES ($1, $2, 'rollback', '{}', $3, now() - $4::interval) RETURNING id`,
        [hook.id, ws, status, age],
      );
    await insert('failed', '31 days');
    await insert('succeeded', '40 days');
    const pending = await insert('pending', '40 days');
    await h.ctx.deps.db.query(
      `UPDATE webhook_outbox SET dispatched_at = now() - interval '31 days' WHERE id = $1`,
      [outboxId],
    );
    await h.ctx.deps.db.query(
      `UPDATE webhook_deliveries SET updated_at = now() - interval '31 days' WHERE outbox_id = $1`,
      [outboxId],
    );
    const removed = await h.worker.prune();
    expect(removed.deliveries).toBeGreaterThanOrEqual(3);
    expect(removed.outbox).toBeGreaterThanOrEqual(1);
    const left = await deliveries(hook.id);
    expect(left.map((d) => d.id)).toEqual([pending.rows[0].id]);
    const outbox = await h.ctx.deps.db.query('SELECT 1 FROM webhook_outbox WHERE id = $1', [outboxId]);
    expect(outbox.rowCount).toBe(0);
  });
});
