import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transaction } from '../../../src/platform/postgres.js';
import { appendOutbox } from '../../../src/webhooks/outbox.writer.js';
import { encryptSecret } from '../../../src/webhooks/secret-box.js';
import { createWebhooksWorker, type WebhooksWorker } from '../../../workers/webhooks.worker.js';
import { expectProblem, fileContext, type SignedIn, signUp } from '../../helpers/context.js';
import { HttpsReceiver, waitFor } from '../../helpers/https-receiver.js';

// Production setting: private targets refused.
let receiver: HttpsReceiver;
let worker: WebhooksWorker;
let owner: SignedIn;

const ctx = fileContext({
  env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false', WEBHOOK_RETRY_BASE_MS: '50' },
});
beforeAll(async () => {
  receiver = await new HttpsReceiver().start();
  worker = createWebhooksWorker(ctx.deps, { ca: receiver.cert });
  await worker.start();
  owner = await signUp(ctx.app);
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
});

async function failedDelivery(webhookId: string) {
  return waitFor(
    async () => {
      const { rows } = await ctx.deps.db.query(
        `SELECT d.status, d.attempts, a.error, a.response_status FROM webhook_deliveries d
           JOIN webhook_attempts a ON a.delivery_id = d.id WHERE d.webhook_id = $1`,
        [webhookId],
      );
      return rows[0]?.status === 'failed' ? rows : undefined;
    },
    10_000,
    'refused delivery',
  );
}

describe('outbound address policy', () => {
  it('refuses a hostname that resolves to loopback, logs the attempt and does not retry', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${owner.workspaceId}/webhooks`,
      headers: owner.headers,
      payload: { url: receiver.url('/local', 'localhost'), events: ['rollback'] },
    });
    expect(res.statusCode).toBe(201);
    receiver.expect('/local', res.json().secret);
    await transaction(ctx.deps.db, (tx) => appendOutbox(tx, owner.workspaceId, 'rollback', { app_id: 'a' }));
    const rows = await failedDelivery(res.json().id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ attempts: 1, response_status: null });
    expect(rows[0].error).toMatch(/refused/);
    expect(receiver.received).toHaveLength(0);
  });

  it('refuses a literal private address at creation, and at delivery for one already stored', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${owner.workspaceId}/webhooks`,
      headers: owner.headers,
      payload: { url: receiver.url('/literal'), events: ['rollback'] },
    });
    expectProblem(res, 400, 'private_target');

    const { rows } = await ctx.deps.db.query(
      `INSERT INTO webhooks (workspace_id, url, events, secret_ciphertext) VALUES ($1, $2, $3, $4) RETURNING id`,
      [
        owner.workspaceId,
        receiver.url('/literal'),
        ['error_spike'],
        encryptSecret(ctx.config.webhooks.secretKey, 'whsec_x'),
      ],
    );
    await transaction(ctx.deps.db, (tx) =>
      appendOutbox(tx, owner.workspaceId, 'error_spike', { app_id: 'a' }),
    );
    const attempts = await failedDelivery(rows[0].id);
    expect(attempts[0].error).toMatch(/refused/);
    expect(receiver.received).toHaveLength(0);
  });
});
