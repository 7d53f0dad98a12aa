import { describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../../src/webhooks/outbox.writer.js';
import { signUp } from '../../helpers/context.js';
import { verify, waitFor } from '../../helpers/https-receiver.js';
import { deliveryHarness, SAMPLES } from './delivery-harness.js';

const { h, webhook, emit, deliveries, outcome } = deliveryHarness();

describe('webhook delivery', () => {
  it('delivers each event type, signed, to subscribed endpoints only', async () => {
    const every = Object.keys(SAMPLES) as WebhookEvent[];
    const all = await webhook(every);
    const some = await webhook(['rollback']);
    const stranger = await signUp(h.ctx.app);
    const theirs = await webhook(every, stranger);

    for (const [event, data] of Object.entries(SAMPLES))
      await emit(h.owner.workspaceId, event as WebhookEvent, data);
    await waitFor(
      () => h.receiver.at(all.path).length === every.length && h.receiver.at(some.path).length === 1,
      10_000,
      'deliveries',
    );

    const rows = await deliveries(all.id);
    for (const got of h.receiver.at(all.path)) {
      expect(got.verified).toBe(true);
      expect(verify(all.secret, got.raw, got.headers['x-service-signature'])).toBe(true);
      expect(got.headers['content-type']).toBe('application/json');
      const body = JSON.parse(got.raw.toString('utf8'));
      expect(Object.keys(body)).toEqual(['event', 'workspace_id', 'data', 'timestamp']);
      expect(got.raw.toString('utf8')).toBe(JSON.stringify(body)); // compact
      expect(body.workspace_id).toBe(h.owner.workspaceId);
      expect(body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(body.data).toEqual(SAMPLES[body.event as WebhookEvent]);
      expect(got.headers['x-service-event']).toBe(body.event);
      const row = rows.find((r) => r.id === got.headers['x-service-delivery']);
      expect(row).toMatchObject({ event: body.event, body: got.raw.toString('utf8') });
    }
    expect(new Set(h.receiver.at(all.path).map((r) => JSON.parse(r.raw.toString()).event))).toEqual(
      new Set(Object.keys(SAMPLES)),
    );
    expect(JSON.parse(h.receiver.at(some.path)[0]!.raw.toString()).event).toBe('rollback');
    expect(h.receiver.at(theirs.path)).toHaveLength(0);
    await waitFor(
      async () => (await deliveries(all.id)).every((d) => d.status === 'succeeded'),
      5000,
      'status',
    );

    // The same outbox row fanned out twice yields no second delivery.
    await h.worker.dispatcher.dispatchOnce();
    expect(await deliveries(all.id)).toHaveLength(every.length);
  });

  it('the receiver rejects a bad signature, and the attempt is logged as failed', async () => {
    const hook = await webhook(['rollback']);
    h.receiver.expect(hook.path, 'whsec_not_the_right_secret');
    await emit(h.owner.workspaceId, 'rollback', SAMPLES.rollback);
    const got = await waitFor(() => h.receiver.at(hook.path)[0], 10_000, 'delivery');
    expect(got.verified).toBe(false);
    expect(got.status).toBe(401);
    const [row] = await waitFor(async () => {
      const rows = await deliveries(hook.id);
      return rows[0]?.attempts >= 1 ? rows : undefined;
    });
    expect(row.response_status).toBe(401);
    await h.ctx.app.inject({ method: 'DELETE', url: hook.api, headers: h.owner.headers });
  });

  it('retries after 500, a redirect and a timeout, then succeeds: one delivery id, several attempts', async () => {
    const hook = await webhook(['release.pushed']);
    h.receiver.script(
      hook.path,
      { status: 500, body: 'boom' },
      { status: 302, headers: { location: '/elsewhere' } },
      'hang',
    );
    await emit(h.owner.workspaceId, 'release.pushed', SAMPLES['release.pushed']);
    const [row] = await waitFor(
      async () => {
        const rows = await deliveries(hook.id);
        return rows[0]?.status === 'succeeded' ? rows : undefined;
      },
      30_000,
      'success',
    );
    const got = h.receiver.at(hook.path);
    expect(got).toHaveLength(4);
    expect(new Set(got.map((g) => g.headers['x-service-delivery']))).toEqual(new Set([row.id]));
    expect(new Set(got.map((g) => g.raw.toString()))).toEqual(new Set([row.body]));
    expect(h.receiver.at('/elsewhere')).toHaveLength(0);
    expect(row.attempts).toBe(4);

    const detail = await h.ctx.app.inject({
      method: 'GET',
      url: `${hook.api}/deliveries/${row.id}`,
      headers: h.owner.headers,
    });
    const log = detail.json().attempt_log;
    expect(log.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2, 3, 4]);
    expect(log.map((a: { response_status: number | null }) => a.response_status)).toEqual([
      500,
      302,
      null,
      200,
    ]);
    expect(log[0].response_body).toBe('boom');
    expect(log[2].error).toMatch(/timeout/);
    expect(log[3].error).toBeNull();

    const list = await h.ctx.app.inject({
      method: 'GET',
      url: `${hook.api}/deliveries`,
      headers: h.owner.headers,
    });
    expect(list.json().deliveries).toEqual([
      expect.objectContaining({
        id: row.id,
        event: 'release.pushed',
        status: 'succeeded',
        attempts: 4,
        response_status: 200,
        next_attempt_at: null,
      }),
    ]);
  });

  it('stops at 410 Gone without further attempts, leaving the webhook active', async () => {
    const hook = await webhook(['rollback']);
    h.receiver.script(hook.path, { status: 410 });
    await emit(h.owner.workspaceId, 'rollback', SAMPLES.rollback);
    const [row] = await waitFor(
      async () => {
        const rows = await deliveries(hook.id);
        return rows[0]?.status === 'failed' ? rows : undefined;
      },
      10_000,
      'failure',
    );
    expect(row).toMatchObject({ attempts: 1, response_status: 410, next_attempt_at: null });
    expect(h.receiver.at(hook.path)).toHaveLength(1);
    const list = await h.ctx.app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${h.owner.workspaceId}/webhooks`,
      headers: h.owner.headers,
    });
    expect(list.json().webhooks.find((w: { id: string }) => w.id === hook.id).is_active).toBe(true);
  });

  it('gives up after the last attempt', async () => {
    const hook = await webhook(['rollback']);
    h.receiver.script(
      hook.path,
      { status: 500 },
      { status: 500 },
      { status: 500 },
      { status: 500 },
      { status: 500 },
    );
    await emit(h.owner.workspaceId, 'rollback', SAMPLES.rollback);
    const [row] = await waitFor(
      async () => {
        const rows = await deliveries(hook.id);
        return rows[0]?.status === 'failed' ? rows : undefined;
      },
      15_000,
      'failure',
    );
    expect(row.attempts).toBe(4);
    expect(h.receiver.at(hook.path)).toHaveLength(4);
  });

  it('stops at once when the webhook is deleted while a retry is scheduled', async () => {
    const hook = await webhook(['rollback']);
    // Retry-After pushes the retry 2 s out (the schedule's cap), leaving time to delete.
    h.receiver.script(hook.path, { status: 503, headers: { 'retry-after': '2' } });
    await emit(h.owner.workspaceId, 'rollback', SAMPLES.rollback);
    const [row] = await waitFor(
      async () => {
        const rows = await deliveries(hook.id);
        return rows[0]?.attempts === 1 ? rows : undefined;
      },
      10_000,
      'first attempt',
    );
    expect(row.status).toBe('pending');
    expect(new Date(row.next_attempt_at).getTime()).toBeGreaterThan(Date.now());
    const gone = outcome(row.id, 'gone');
    expect(
      (await h.ctx.app.inject({ method: 'DELETE', url: hook.api, headers: h.owner.headers })).statusCode,
    ).toBe(204);
    await gone; // the scheduled retry ran and found nothing to send
    expect(h.receiver.at(hook.path)).toHaveLength(1);
  });
});
