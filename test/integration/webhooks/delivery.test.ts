import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transaction } from '../../../src/platform/postgres.js';
import type { AttemptJob } from '../../../src/webhooks/delivery-queue.js';
import { appendOutbox, type WebhookEvent } from '../../../src/webhooks/outbox.writer.js';
import { createWebhooksWorker, type WebhooksWorker } from '../../../workers/webhooks.worker.js';
import {
  createTestContext,
  expectProblem,
  type SignedIn,
  signUp,
  type TestContext,
} from '../../helpers/context.js';
import { HttpsReceiver, verify, waitFor } from './https-receiver.js';

let ctx: TestContext;
let receiver: HttpsReceiver;
let worker: WebhooksWorker;
let owner: SignedIn;

beforeAll(async () => {
  ctx = await createTestContext({
    env: {
      WEBHOOK_TIMEOUT_MS: '800',
      WEBHOOK_RETRY_BASE_MS: '100',
      WEBHOOK_RETRY_MAX_DELAY_MS: '2000',
      WEBHOOK_MAX_ATTEMPTS: '4',
      WEBHOOK_DISPATCH_POLL_MS: '5000',
    },
  });
  receiver = await new HttpsReceiver().start();
  worker = createWebhooksWorker(ctx.deps, { ca: receiver.cert });
  await worker.start();
  owner = await signUp(ctx.app);
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await ctx?.close();
});

let paths = 0;
async function webhook(events: WebhookEvent[], who: SignedIn = owner) {
  const path = `/hook-${++paths}`;
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/v1/workspaces/${who.workspaceId}/webhooks`,
    headers: who.headers,
    payload: { url: receiver.url(path), events },
  });
  expect(res.statusCode).toBe(201);
  const body = res.json() as { id: string; secret: string };
  receiver.expect(path, body.secret);
  return {
    id: body.id,
    secret: body.secret,
    path,
    api: `/api/v1/workspaces/${who.workspaceId}/webhooks/${body.id}`,
  };
}

async function emit(workspaceId: string, event: WebhookEvent, data: Record<string, unknown>) {
  return transaction(ctx.deps.db, (tx) => appendOutbox(tx, workspaceId, event, data));
}

async function delivery(webhookId: string) {
  const { rows } = await ctx.deps.db.query('SELECT * FROM webhook_deliveries WHERE webhook_id = $1', [
    webhookId,
  ]);
  return rows;
}

function outcome(deliveryId: string, wanted: string) {
  return new Promise<void>((resolve) => {
    const on = (job: AttemptJob, result: string) => {
      if (job.deliveryId === deliveryId && result === wanted) {
        worker.events.off('attempt', on);
        resolve();
      }
    };
    worker.events.on('attempt', on);
  });
}

const SAMPLES: Record<WebhookEvent, Record<string, unknown>> = {
  'release.pushed': {
    app_id: 'a1',
    app_name: 'Shop',
    module_id: 'm1',
    version: '1.2.3',
    channel: 'production',
    rollout_pct: 25,
    mandatory: false,
    sha256: 'ab'.repeat(32),
    notes: 'Fixes',
  },
  'rollout.changed': {
    app_id: 'a1',
    app_name: 'Shop',
    module_id: 'm1',
    version: '1.2.3',
    channel: 'production',
    old_rollout_pct: 25,
    rollout_pct: 50,
  },
  rollback: {
    app_id: 'a1',
    app_name: 'Shop',
    channel: 'production',
    rolled_back: { module_id: 'm2', version: '1.2.4' },
    active: { module_id: 'm1', version: '1.2.3' },
  },
  error_spike: {
    app_id: 'a1',
    app_name: 'Shop',
    version: '1.2.3',
    error_rate: 0.1,
    errors: 10,
    activations: 90,
    sample: 100,
    window_minutes: 15,
    threshold: 0.05,
  },
};

describe('webhook delivery', () => {
  it('delivers each event type, signed, to subscribed endpoints only', async () => {
    const all = await webhook(['release.pushed', 'rollout.changed', 'rollback', 'error_spike']);
    const some = await webhook(['rollback']);
    const stranger = await signUp(ctx.app);
    const theirs = await webhook(['release.pushed', 'rollout.changed', 'rollback', 'error_spike'], stranger);

    for (const [event, data] of Object.entries(SAMPLES))
      await emit(owner.workspaceId, event as WebhookEvent, data);
    await waitFor(
      () => receiver.at(all.path).length === 4 && receiver.at(some.path).length === 1,
      10_000,
      'deliveries',
    );

    const rows = await delivery(all.id);
    for (const got of receiver.at(all.path)) {
      expect(got.verified).toBe(true);
      expect(verify(all.secret, got.raw, got.headers['x-service-signature'])).toBe(true);
      expect(got.headers['content-type']).toBe('application/json');
      const body = JSON.parse(got.raw.toString('utf8'));
      expect(Object.keys(body)).toEqual(['event', 'workspace_id', 'data', 'timestamp']);
      expect(got.raw.toString('utf8')).toBe(JSON.stringify(body)); // compact
      expect(body.workspace_id).toBe(owner.workspaceId);
      expect(body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(body.data).toEqual(SAMPLES[body.event as WebhookEvent]);
      expect(got.headers['x-service-event']).toBe(body.event);
      const row = rows.find((r) => r.id === got.headers['x-service-delivery']);
      expect(row).toMatchObject({ event: body.event, body: got.raw.toString('utf8') });
    }
    expect(new Set(receiver.at(all.path).map((r) => JSON.parse(r.raw.toString()).event))).toEqual(
      new Set(Object.keys(SAMPLES)),
    );
    expect(JSON.parse(receiver.at(some.path)[0]!.raw.toString()).event).toBe('rollback');
    expect(receiver.at(theirs.path)).toHaveLength(0);
    await waitFor(
      async () => (await delivery(all.id)).every((d) => d.status === 'succeeded'),
      5000,
      'status',
    );

    // The same outbox row fanned out twice yields no second delivery.
    await worker.dispatcher.dispatchOnce();
    expect(await delivery(all.id)).toHaveLength(4);
  });

  it('the receiver rejects a bad signature, and the attempt is logged as failed', async () => {
    const hook = await webhook(['rollback']);
    receiver.expect(hook.path, 'whsec_not_the_right_secret');
    await emit(owner.workspaceId, 'rollback', SAMPLES.rollback);
    const got = await waitFor(() => receiver.at(hook.path)[0], 10_000, 'delivery');
    expect(got.verified).toBe(false);
    expect(got.status).toBe(401);
    const [row] = await waitFor(async () => {
      const rows = await delivery(hook.id);
      return rows[0]?.attempts >= 1 ? rows : undefined;
    });
    expect(row.response_status).toBe(401);
    await ctx.app.inject({ method: 'DELETE', url: hook.api, headers: owner.headers });
  });

  it('retries after 500, a redirect and a timeout, then succeeds: one delivery id, several attempts', async () => {
    const hook = await webhook(['release.pushed']);
    receiver.script(
      hook.path,
      { status: 500, body: 'boom' },
      { status: 302, headers: { location: '/elsewhere' } },
      'hang',
    );
    await emit(owner.workspaceId, 'release.pushed', SAMPLES['release.pushed']);
    const [row] = await waitFor(
      async () => {
        const rows = await delivery(hook.id);
        return rows[0]?.status === 'succeeded' ? rows : undefined;
      },
      15_000,
      'success',
    );
    const got = receiver.at(hook.path);
    expect(got).toHaveLength(4);
    expect(new Set(got.map((g) => g.headers['x-service-delivery']))).toEqual(new Set([row.id]));
    expect(new Set(got.map((g) => g.raw.toString()))).toEqual(new Set([row.body]));
    expect(receiver.at('/elsewhere')).toHaveLength(0);
    expect(row.attempts).toBe(4);

    const detail = await ctx.app.inject({
      method: 'GET',
      url: `${hook.api}/deliveries/${row.id}`,
      headers: owner.headers,
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

    const list = await ctx.app.inject({
      method: 'GET',
      url: `${hook.api}/deliveries`,
      headers: owner.headers,
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
    receiver.script(hook.path, { status: 410 });
    await emit(owner.workspaceId, 'rollback', SAMPLES.rollback);
    const [row] = await waitFor(
      async () => {
        const rows = await delivery(hook.id);
        return rows[0]?.status === 'failed' ? rows : undefined;
      },
      10_000,
      'failure',
    );
    expect(row).toMatchObject({ attempts: 1, response_status: 410, next_attempt_at: null });
    expect(receiver.at(hook.path)).toHaveLength(1);
    const list = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${owner.workspaceId}/webhooks`,
      headers: owner.headers,
    });
    expect(list.json().webhooks.find((w: { id: string }) => w.id === hook.id).is_active).toBe(true);
  });

  it('gives up after the last attempt', async () => {
    const hook = await webhook(['rollback']);
    receiver.script(
      hook.path,
      { status: 500 },
      { status: 500 },
      { status: 500 },
      { status: 500 },
      { status: 500 },
    );
    await emit(owner.workspaceId, 'rollback', SAMPLES.rollback);
    const [row] = await waitFor(
      async () => {
        const rows = await delivery(hook.id);
        return rows[0]?.status === 'failed' ? rows : undefined;
      },
      15_000,
      'failure',
    );
    expect(row.attempts).toBe(4);
    expect(receiver.at(hook.path)).toHaveLength(4);
  });

  it('stops at once when the webhook is deleted while a retry is scheduled', async () => {
    const hook = await webhook(['rollback']);
    // Retry-After pushes the retry 2 s out (the schedule's cap), leaving time to delete.
    receiver.script(hook.path, { status: 503, headers: { 'retry-after': '2' } });
    await emit(owner.workspaceId, 'rollback', SAMPLES.rollback);
    const [row] = await waitFor(
      async () => {
        const rows = await delivery(hook.id);
        return rows[0]?.attempts === 1 ? rows : undefined;
      },
      10_000,
      'first attempt',
    );
    expect(row.status).toBe('pending');
    expect(new Date(row.next_attempt_at).getTime()).toBeGreaterThan(Date.now());
    const gone = outcome(row.id, 'gone');
    expect(
      (await ctx.app.inject({ method: 'DELETE', url: hook.api, headers: owner.headers })).statusCode,
    ).toBe(204);
    await gone; // the scheduled retry ran and found nothing to send
    expect(receiver.at(hook.path)).toHaveLength(1);
  });

  it('records nothing and schedules nothing when the webhook is deleted during an attempt', async () => {
    const hook = await webhook(['rollback']);
    receiver.script(hook.path, 'hang');
    await emit(owner.workspaceId, 'rollback', SAMPLES.rollback);
    await waitFor(() => receiver.at(hook.path).length === 1, 10_000, 'attempt in flight');
    const [row] = await delivery(hook.id);
    const gone = outcome(row.id, 'gone');
    expect(
      (await ctx.app.inject({ method: 'DELETE', url: hook.api, headers: owner.headers })).statusCode,
    ).toBe(204);
    await gone; // the attempt timed out, found its delivery gone, and scheduled no retry
    const attempts = await ctx.deps.db.query(
      'SELECT count(*)::int AS n FROM webhook_attempts WHERE delivery_id = $1',
      [row.id],
    );
    expect(attempts.rows[0].n).toBe(0);
    expect(receiver.at(hook.path)).toHaveLength(1);
  });

  it('sends a ping, and redelivers a finished delivery with the same id and bytes', async () => {
    const hook = await webhook(['error_spike']);
    const res = await ctx.app.inject({ method: 'POST', url: `${hook.api}/test`, headers: owner.headers });
    expect(res.statusCode).toBe(202);
    const { delivery_id } = res.json();
    const ping = await waitFor(() => receiver.at(hook.path)[0], 10_000, 'ping');
    expect(ping.verified).toBe(true);
    expect(ping.headers['x-service-event']).toBe('ping');
    expect(ping.headers['x-service-delivery']).toBe(delivery_id);
    const body = JSON.parse(ping.raw.toString());
    expect(body).toMatchObject({ event: 'ping', workspace_id: owner.workspaceId });
    expect(body.data).toEqual({ webhook_id: hook.id, message: expect.any(String) });

    await waitFor(async () => (await delivery(hook.id))[0]?.status === 'succeeded', 5000, 'ping recorded');
    const again = await ctx.app.inject({
      method: 'POST',
      url: `${hook.api}/deliveries/${delivery_id}/redeliver`,
      headers: owner.headers,
    });
    expect(again.statusCode).toBe(202);
    await waitFor(() => receiver.at(hook.path).length === 2, 10_000, 'redelivery');
    const second = receiver.at(hook.path)[1]!;
    expect(second.headers['x-service-delivery']).toBe(delivery_id);
    expect(second.raw.equals(ping.raw)).toBe(true);
    const [row] = await waitFor(async () => {
      const rows = await delivery(hook.id);
      return rows[0]?.attempts === 2 && rows[0].status === 'succeeded' ? rows : undefined;
    });
    expect(row.id).toBe(delivery_id);

    // A delivery still in progress cannot be redelivered; an unknown one is 404.
    receiver.script(hook.path, 'hang');
    await ctx.app.inject({
      method: 'POST',
      url: `${hook.api}/deliveries/${delivery_id}/redeliver`,
      headers: owner.headers,
    });
    const busy = await ctx.app.inject({
      method: 'POST',
      url: `${hook.api}/deliveries/${delivery_id}/redeliver`,
      headers: owner.headers,
    });
    expectProblem(busy, 409, 'delivery_pending');
    const unknown = await ctx.app.inject({
      method: 'POST',
      url: `${hook.api}/deliveries/00000000-0000-4000-8000-000000000000/redeliver`,
      headers: owner.headers,
    });
    expectProblem(unknown, 404);
  });

  it('re-enqueues a delivery whose job was lost', async () => {
    const hook = await webhook(['rollback']);
    // A delivery with no job, overdue (as after a crash between commit and enqueue).
    await ctx.deps.db.query(
      `INSERT INTO webhook_deliveries (webhook_id, workspace_id, event, body, next_attempt_at)
       VALUES ($1, $2, 'rollback', '{"event":"rollback"}', now() - interval '1 hour')`,
      [hook.id, owner.workspaceId],
    );
    expect(await worker.sweep()).toBe(1);
    await waitFor(() => receiver.at(hook.path).length === 1, 10_000, 'swept delivery');
  });
});
