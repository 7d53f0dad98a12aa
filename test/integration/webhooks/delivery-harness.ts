import { afterAll, beforeAll, expect } from 'vitest';
import { transaction } from '../../../src/platform/postgres.js';
import type { AttemptJob } from '../../../src/webhooks/delivery-queue.js';
import { appendOutbox, type WebhookEvent } from '../../../src/webhooks/outbox.writer.js';
import { createWebhooksWorker, type WebhooksWorker } from '../../../workers/webhooks.worker.js';
import { createTestContext, type SignedIn, signUp, type TestContext } from '../../helpers/context.js';
import { HttpsReceiver } from '../../helpers/https-receiver.js';

/**
 * One test file's delivery world: a test context with short timeouts and backoffs, a local HTTPS receiver
 * whose certificate the worker trusts, the webhooks worker, and an owner. Registers beforeAll/afterAll.
 */
export function deliveryHarness() {
  const h = {} as {
    ctx: TestContext;
    receiver: HttpsReceiver;
    worker: WebhooksWorker;
    owner: SignedIn;
  };
  beforeAll(async () => {
    h.ctx = await createTestContext({
      env: {
        // The receiver listens on loopback.
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        // Long enough that only the receiver's 'hang' reply runs into it, however loaded the machine: the
        // tests count attempts, and a slow but answered attempt must not turn into an extra timeout.
        WEBHOOK_TIMEOUT_MS: '5000',
        WEBHOOK_RETRY_BASE_MS: '100',
        WEBHOOK_RETRY_MAX_DELAY_MS: '2000',
        WEBHOOK_MAX_ATTEMPTS: '4',
        WEBHOOK_DISPATCH_POLL_MS: '5000',
      },
    });
    h.receiver = await new HttpsReceiver().start();
    h.worker = createWebhooksWorker(h.ctx.deps, { ca: h.receiver.cert });
    await h.worker.start();
    h.owner = await signUp(h.ctx.app);
  });
  afterAll(async () => {
    await h.worker?.stop();
    await h.receiver?.close();
    await h.ctx?.close();
  });

  let paths = 0;
  /** Registers a webhook through the API and tells the receiver its secret. */
  const webhook = async (events: WebhookEvent[], who: SignedIn = h.owner) => {
    const path = `/hook-${++paths}`;
    const res = await h.ctx.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${who.workspaceId}/webhooks`,
      headers: who.headers,
      payload: { url: h.receiver.url(path), events },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json() as { id: string; secret: string };
    h.receiver.expect(path, body.secret);
    return {
      id: body.id,
      secret: body.secret,
      path,
      api: `/api/v1/workspaces/${who.workspaceId}/webhooks/${body.id}`,
    };
  };
  /** An event as a change's transaction records it. */
  const emit = (workspaceId: string, event: WebhookEvent, data: Record<string, unknown>) =>
    transaction(h.ctx.deps.db, (tx) => appendOutbox(tx, workspaceId, event, data));
  const deliveries = async (webhookId: string) =>
    (await h.ctx.deps.db.query('SELECT * FROM webhook_deliveries WHERE webhook_id = $1', [webhookId])).rows;
  /** Resolves when an attempt job of the delivery ends with this outcome. */
  const outcome = (deliveryId: string, wanted: string) =>
    new Promise<void>((resolve) => {
      const on = (job: AttemptJob, result: string) => {
        if (job.deliveryId === deliveryId && result === wanted) {
          h.worker.events.off('attempt', on);
          resolve();
        }
      };
      h.worker.events.on('attempt', on);
    });
  return { h, webhook, emit, deliveries, outcome };
}

export const SAMPLES: Record<WebhookEvent, Record<string, unknown>> = {
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
  'api_key.expiring': {
    key_id: 'k1',
    name: 'ci',
    expires_at: '2026-12-01T00:00:00.000Z',
    app_ids: ['a1'],
  },
};
