import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OtaClient } from '../../client/index.js';
import { type ConsoleHarness, signInThroughUi, startConsole } from '../helpers/browser.js';

let h: ConsoleHarness;
let api: OtaClient;
let appId = '';

beforeAll(async () => {
  h = await startConsole();
  await signInThroughUi(h.page, h.baseUrl, `codepush-${Date.now()}@example.com`, 'correct horse battery');
  const raw = await h.page.evaluate(() => sessionStorage.getItem('ota.console.session'));
  api = h.client({ token: (JSON.parse(raw ?? '{}') as { token: string }).token });
  appId = (await api.apps.create('RN Shop')).id;
});

afterAll(async () => {
  await h?.close();
});

describe('console: CodePush deployment keys', () => {
  it('creates a key on the app page; the key answers CodePush update checks', async () => {
    const { page } = h;
    await page.goto(`${h.baseUrl}/apps/${appId}`);
    const panel = page.getByRole('region', { name: 'CodePush deployment keys' });
    await panel.getByText('No deployment keys yet.').waitFor();
    await panel.getByRole('button', { name: 'Create key' }).click();
    const row = panel.getByTestId('deployment-keys').getByRole('row', { name: /production/ });
    await row.waitFor();
    const key = ((await row.locator('code').textContent()) ?? '').trim();
    expect(key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    await h.screenshot('deployment-key-created');
    const res = await fetch(
      `${h.baseUrl}/v0.1/public/codepush/update_check?deployment_key=${key}&app_version=1.0.0&client_unique_id=d1`,
    );
    expect(res.status).toBe(200);
    expect((await res.json()).update_info.is_available).toBe(false);
  });

  it('shows the upgrade message for another channel on hobby', async () => {
    const panel = h.page.getByRole('region', { name: 'CodePush deployment keys' });
    await panel.getByLabel('Channel').fill('beta');
    await panel.getByRole('button', { name: 'Create key' }).click();
    await panel.getByText(/Channels other than production/).waitFor();
    expect(await panel.getByTestId('deployment-keys').getByRole('row', { name: /beta/ }).count()).toBe(0);
  });

  it('deletes a key after confirmation; the key is refused at once', async () => {
    const { page } = h;
    const panel = page.getByRole('region', { name: 'CodePush deployment keys' });
    const row = panel.getByTestId('deployment-keys').getByRole('row', { name: /production/ });
    const key = ((await row.locator('code').textContent()) ?? '').trim();
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await panel.getByText('No deployment keys yet.').waitFor();
    expect((await api.deploymentKeys.list(appId)).deployment_keys).toEqual([]);
    const res = await fetch(
      `${h.baseUrl}/v0.1/public/codepush/update_check?deployment_key=${key}&app_version=1.0.0&client_unique_id=d1`,
    );
    expect(res.status).toBe(404);
    expect(h.problems.filter((p) => !p.includes('402'))).toEqual([]);
  });
});
