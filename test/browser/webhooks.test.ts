import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhooksWorker, type WebhooksWorker } from '../../workers/webhooks.worker.js';
import { type ConsoleHarness, signInThroughUi, startConsole } from '../helpers/browser.js';
import { HttpsReceiver } from '../helpers/https-receiver.js';

let h: ConsoleHarness;
let receiver: HttpsReceiver;
let worker: WebhooksWorker;

beforeAll(async () => {
  h = await startConsole({
    // The receiver listens on loopback.
    env: {
      WEBHOOK_RETRY_BASE_MS: '100',
      WEBHOOK_RETRY_MAX_DELAY_MS: '500',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    },
  });
  receiver = await new HttpsReceiver().start();
  // The worker trusts the receiver's own certificate, as a deployment trusts its CAs.
  worker = createWebhooksWorker(h.ctx.deps, { ca: receiver.cert });
  await worker.start();
  await signInThroughUi(h.page, h.baseUrl, `hooks-${Date.now()}@example.com`, 'correct horse battery');
});

afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await h?.close();
});

describe('console: webhooks', () => {
  it('creates a webhook and shows its signing secret once', async () => {
    const { page } = h;
    await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
    const form = page.getByRole('form', { name: 'Create a webhook' });
    await form.getByLabel('Endpoint URL (HTTPS)').fill(receiver.url('/hook'));
    await form.getByRole('checkbox', { name: 'error_spike' }).uncheck();
    await form.getByRole('button', { name: 'Create webhook' }).click();
    const secret = (await page.getByTestId('secret-value').textContent()) ?? '';
    expect(secret.length).toBeGreaterThan(20);
    receiver.expect('/hook', secret);
    const hook = page.getByTestId('webhook');
    await hook.waitFor();
    expect(await hook.textContent()).toContain(receiver.url('/hook'));
    expect(await hook.textContent()).not.toContain('error_spike');
    await h.screenshot('webhook-created');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.reload();
    await page.getByTestId('webhook').waitFor();
    expect(await page.content()).not.toContain(secret);
  });

  it('sends a test ping and shows the delivery with its attempts', async () => {
    const { page } = h;
    // The first attempt is refused: the log then shows a retry that succeeds.
    receiver.script('/hook', { status: 503 });
    const hook = page.getByTestId('webhook');
    await hook.getByRole('button', { name: 'Send test' }).click();
    await hook.getByText('delivery is queued').waitFor();
    const delivery = hook.getByTestId('delivery').first();
    await delivery.waitFor();
    expect(await delivery.getAttribute('data-event')).toBe('ping');
    await expect
      .poll(
        async () => {
          await hook.getByRole('button', { name: 'Refresh' }).click();
          return (await delivery.textContent()) ?? '';
        },
        { timeout: 20_000, interval: 500 },
      )
      .toMatch(/succeeded/);
    expect(await delivery.textContent()).toMatch(/2 attempts/);
    expect(await delivery.textContent()).toContain('HTTP 200');
    await delivery.getByRole('button').first().click();
    const attempts = delivery.getByTestId('attempts');
    await attempts.waitFor();
    const rows = await attempts.locator('tbody tr').allTextContents();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain('HTTP 503');
    expect(rows[1]).toContain('HTTP 200');
    await h.screenshot('webhook-deliveries');

    const pings = receiver.at('/hook').filter((r) => r.headers['x-service-event'] === 'ping');
    expect(pings.length).toBe(2);
    expect(pings.every((r) => r.verified)).toBe(true);
  });

  it('deletes the webhook after confirmation, without a reload', async () => {
    const { page } = h;
    const hook = page.getByTestId('webhook');
    await hook.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByTestId('webhook').count()).toBe(0);
    await page.getByText('No webhooks yet.').waitFor();
    const raw = await page.evaluate(() => sessionStorage.getItem('ota.console.session'));
    const { token, workspaceId } = JSON.parse(raw ?? '{}') as { token: string; workspaceId: string };
    expect((await h.client({ token }).webhooks.list(workspaceId)).webhooks).toEqual([]);
    expect(h.problems).toEqual([]);
  });
});
