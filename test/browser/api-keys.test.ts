import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../client/index.js';
import { type ConsoleHarness, signInThroughUi, startConsole } from '../helpers/browser.js';

let h: ConsoleHarness;
let createdKey = '';
const email = `keys-${Date.now()}@example.com`;

beforeAll(async () => {
  h = await startConsole();
  await signInThroughUi(h.page, h.baseUrl, email, 'correct horse battery');
});

afterAll(async () => {
  await h?.close();
});

describe('console: API keys', () => {
  it('creates a key, shows it once, and the key works against the API', async () => {
    const { page } = h;
    await page.getByRole('link', { name: 'Team', exact: true }).click();
    const panel = page.getByRole('region', { name: 'API keys' });
    await panel.getByLabel('Key name').fill('ci deploy');
    await panel.getByLabel('Role').selectOption('developer');
    await panel.getByRole('button', { name: 'Create key' }).click();

    const secret = page.getByTestId('secret-value');
    await secret.waitFor();
    const key = (await secret.textContent()) ?? '';
    expect(key.length).toBeGreaterThan(20);
    createdKey = key;
    const row = page.getByTestId('api-keys').getByRole('row', { name: /ci deploy/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('developer');
    // Whose key it is: removing that member revokes it.
    expect(await row.getByTestId('key-creator').textContent()).toBe(email);
    await h.screenshot('api-key-created');

    const me = await h.client({ apiKey: key }).auth.me();
    expect(me.role).toBe('developer');
    expect(me.user).toBeNull();

    // Once dismissed, the key is gone from the page; the list never carries it.
    await page.getByRole('button', { name: 'I have stored it' }).click();
    expect(await page.getByTestId('secret-value').count()).toBe(0);
    expect(await page.content()).not.toContain(key);
    await page.reload();
    const reloaded = page.getByTestId('api-keys').getByRole('row', { name: /ci deploy/ });
    await reloaded.waitFor();
    expect(await reloaded.getByTestId('key-creator').textContent()).toBe(email);
    expect(await page.content()).not.toContain(key);
  });

  it('revokes a key after confirmation, without a reload, and the key stops working', async () => {
    const { page } = h;
    // A marker on the document: it survives only if the page is never reloaded.
    await page.evaluate(() => {
      (window as unknown as { __marker: number }).__marker = 1;
    });
    const row = page.getByTestId('api-keys').getByRole('row', { name: /ci deploy/ });
    await row.getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain('stops working');
    // Cancel leaves it; confirm removes it.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await row.count()).toBe(1);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => row.count()).toBe(0);
    // The same document: no navigation happened.
    expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(1);
    await h.screenshot('api-key-revoked');

    const stored = await page.evaluate(() => sessionStorage.getItem('ota.console.session'));
    const { token, workspaceId } = JSON.parse(stored ?? '{}') as { token: string; workspaceId: string };
    const { api_keys } = await h.client({ token }).apiKeys.list(workspaceId);
    expect(api_keys.map((k) => k.name)).not.toContain('ci deploy');
    expect(h.problems).toEqual([]);
  });

  it('the revoked key is refused by the API', async () => {
    expect(createdKey).not.toBe('');
    const err = await h
      .client({ apiKey: createdKey })
      .auth.me()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(401);
  });

  it('makes a key limited to one app that expires in 90 days, and lists its apps and expiry', async () => {
    const { page } = h;
    const stored = await page.evaluate(() => sessionStorage.getItem('ota.console.session'));
    const { token } = JSON.parse(stored ?? '{}') as { token: string };
    const app = await h.client({ token }).apps.create('Shop for CI');
    await page.reload();
    const panel = page.getByRole('region', { name: 'API keys' });
    await panel.getByLabel('Key name').fill('github actions');
    await panel.getByLabel('Role').selectOption('developer');
    await panel.getByLabel('Apps').selectOption(app.id);
    await panel.getByLabel('Expires').selectOption('90');
    await panel.getByRole('button', { name: 'Create key' }).click();
    const secret = page.getByTestId('secret-value');
    await secret.waitFor();
    const key = (await secret.textContent()) ?? '';
    const row = page.getByTestId('api-keys').getByRole('row', { name: /github actions/ });
    await row.waitFor();
    expect(await row.getByTestId('key-apps').textContent()).toBe('Shop for CI');
    expect(await row.getByTestId('key-expiry').textContent()).not.toBe('never');
    await h.screenshot('api-key-limited');
    const me = await h.client({ apiKey: key }).auth.me();
    expect(me.app_ids).toEqual([app.id]);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    expect(h.problems).toEqual([]);
  });
});
