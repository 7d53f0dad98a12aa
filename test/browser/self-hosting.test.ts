import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OtaClient } from '../../client/index.js';
import { type ConsoleHarness, signInThroughUi, startConsole } from '../helpers/browser.js';

/**
 * The console for someone running the service: their account's password (change, reset link), desktop
 * tables whose columns line up, and an app page that opens on its releases. At a desktop (1400 px) and a
 * phone (390 px).
 */
let h: ConsoleHarness;
let api: OtaClient;
let workspaceId = '';
let appId = '';
const email = `selfhost-${Date.now()}@example.com`;
let password = 'correct horse battery';

beforeAll(async () => {
  h = await startConsole();
  await signInThroughUi(h.page, h.baseUrl, email, password);
  const raw = await h.page.evaluate(() => sessionStorage.getItem('ota.console.session'));
  api = h.client({ token: (JSON.parse(raw ?? '{}') as { token: string }).token });
  workspaceId = (await api.auth.me()).workspace_id;
  // Pro: members beyond one, and a device cap, so the Usage page lists the counted devices.
  await api.workspaces.setPlan(workspaceId, 'pro');
  await api.members.invite(workspaceId, { email: 'second.member@example.com', role: 'developer' });
  await api.apiKeys.create(workspaceId, { name: 'pipeline', role: 'developer' });
  appId = (await api.apps.create('Shop')).id;
  for (const version of ['1.0.0', '1.1.0']) {
    const bundle = await api.apps.uploadBundle(appId, randomBytes(256));
    await api.modules.push({ app_id: appId, version, sha256: bundle.sha256, notes: `Release ${version}` });
  }
  await h.client().devices.check({ app_id: appId, device_id: 'phone-a' });
});

afterAll(async () => {
  await h?.close();
});

/**
 * For each column of a DataTable: how far its header and its first row's cell start apart, in px (0 when
 * the columns line up), and the table's own display.
 */
const columns = (testId: string) =>
  h.page.getByTestId(testId).evaluate((table) => {
    const heads = Array.from(table.querySelectorAll('thead th')).map((c) => c.getBoundingClientRect().left);
    const cells = Array.from(table.querySelectorAll('tbody tr:first-child td')).map(
      (c) => c.getBoundingClientRect().left,
    );
    return {
      display: getComputedStyle(table).display,
      offsets: heads.map((x, i) => Math.round(Math.abs(x - (cells[i] ?? Number.NaN)))),
    };
  });

describe('console: desktop tables line up (1400 px)', () => {
  for (const [path, testId] of [
    ['/team', 'members'],
    ['/team', 'api-keys'],
    ['/usage', 'counted-devices'],
  ] as const) {
    it(`${testId}: every header sits over its column`, async () => {
      await h.page.setViewportSize({ width: 1400, height: 900 });
      await h.page.goto(`${h.baseUrl}${path}`);
      await h.page.getByTestId(testId).locator('tbody tr').first().waitFor();
      const { display, offsets } = await columns(testId);
      await h.screenshot(`self-hosting-${testId}-1400`);
      expect(display).toBe('table');
      expect(offsets.length).toBeGreaterThan(1);
      expect(offsets.every((d) => d <= 1)).toBe(true);
    });
  }
});

describe('console: the app page opens on its releases', () => {
  for (const [width, height] of [
    [1400, 900],
    [390, 844],
  ] as const) {
    it(`releases come before the deployment keys (${width} px)`, async () => {
      await h.page.setViewportSize({ width, height });
      await h.page.goto(`${h.baseUrl}/apps/${appId}`);
      const card = h.page.getByTestId('release').first();
      await card.waitFor();
      const keys = h.page.getByRole('region', { name: 'CodePush deployment keys' });
      await keys.waitFor();
      const cardTop = (await card.boundingBox())!.y;
      expect(cardTop).toBeLessThan((await keys.boundingBox())!.y);
      if (width === 1400) expect(cardTop).toBeLessThan(height); // in sight without scrolling
      await h.screenshot(`self-hosting-app-page-${width}`);
    });
  }

  it('opens the chart on a range that suits a new app (the last hour for releases minutes old)', async () => {
    await h.page.setViewportSize({ width: 1400, height: 900 });
    await h.page.goto(`${h.baseUrl}/apps/${appId}`);
    const range = h.page.getByRole('combobox', { name: 'Time range' });
    await h.page.getByTestId('release').first().waitFor();
    await expect.poll(() => range.inputValue()).toBe('1h');
  });
});

describe('console: the password', () => {
  for (const width of [1400, 390]) {
    it(`changes it on the Account page; other sessions end, this one goes on (${width} px)`, async () => {
      const other = await h.client().auth.signin(email, password);
      const otherApi = h.client({ token: other.token });
      await h.page.setViewportSize({ width, height: 900 });
      await h.page.goto(`${h.baseUrl}/apps`);
      await h.page.getByRole('link', { name: 'Account', exact: true }).click();
      const form = h.page.getByTestId('change-password');
      const next = `${password}!${width}`;
      await form.getByLabel('Current password').fill(password);
      await form.getByLabel('New password', { exact: true }).fill(next);
      await form.getByLabel('New password again').fill(next);
      await form.getByRole('button', { name: 'Change password' }).click();
      await h.page.getByRole('status').filter({ hasText: 'Password changed' }).waitFor();
      await h.screenshot(`self-hosting-account-${width}`);
      password = next;
      await expect(otherApi.auth.me()).rejects.toMatchObject({ status: 401 });
      // This tab goes on: another page still loads.
      await h.page.getByRole('link', { name: 'Team', exact: true }).click();
      await h.page.getByTestId('members').waitFor();
      expect(h.problems).toEqual([]);
    });
  }

  it('sets a new one through a reset link, which signs the tab out', async () => {
    const { url } = await h.ctx.app.deps.services.passwordResets.issueForOperator(email);
    await h.page.setViewportSize({ width: 390, height: 844 });
    await h.page.goto(url);
    const form = h.page.getByTestId('reset-password');
    await form.getByLabel('New password', { exact: true }).fill('chosen from the link');
    await form.getByLabel('New password again').fill('chosen from the link');
    await h.screenshot('self-hosting-reset-390');
    await form.getByRole('button', { name: 'Set password' }).click();
    await h.page.getByText('Your password was set').waitFor();
    expect(new URL(h.page.url()).pathname).toBe('/signin');
    expect(await h.page.evaluate(() => window.location.hash)).toBe('');
    await h.page.getByLabel('E-mail').fill(email);
    await h.page.getByLabel('Password').fill('chosen from the link');
    await h.page.getByRole('button', { name: 'Sign in' }).click();
    await h.page.getByRole('navigation', { name: 'Sections' }).waitFor();
  });

  it('offers "Forgot your password?", which says when the server sends no e-mail', async () => {
    await h.page.evaluate(() => sessionStorage.clear());
    await h.page.setViewportSize({ width: 1400, height: 900 });
    await h.page.goto(`${h.baseUrl}/signin`);
    await h.page.getByRole('button', { name: 'Forgot your password?' }).click();
    const form = h.page.getByTestId('forgot-password');
    await form.getByLabel('E-mail').fill(email);
    await form.getByRole('button', { name: 'Send the link' }).click();
    await form.getByRole('alert').filter({ hasText: 'npm run admin -- reset-password' }).waitFor();
    await h.screenshot('self-hosting-forgot-1400');
  });
});
