import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OtaClient } from '../../client/index.js';
import { type ConsoleHarness, signInThroughUi, startConsole } from '../helpers/browser.js';

let h: ConsoleHarness;
let api: OtaClient;
let appId = '';
const releaseIds: Record<string, string> = {};

beforeAll(async () => {
  h = await startConsole();
  await signInThroughUi(h.page, h.baseUrl, `releases-${Date.now()}@example.com`, 'correct horse battery');
  const raw = await h.page.evaluate(() => sessionStorage.getItem('ota.console.session'));
  api = h.client({ token: (JSON.parse(raw ?? '{}') as { token: string }).token });
});

afterAll(async () => {
  await h?.close();
});

async function push(version: string, notes: string): Promise<string> {
  const bundle = await api.apps.uploadBundle(appId, randomBytes(256));
  const release = await api.modules.push({ app_id: appId, version, sha256: bundle.sha256, notes });
  releaseIds[version] = release.id;
  return release.id;
}

const card = (version: string) => h.page.locator(`[data-testid="release"][data-version="${version}"]`);

describe('console: apps and releases', () => {
  it('creates an app from the apps page and opens it', async () => {
    const { page } = h;
    await page.getByLabel('New app name').fill('Shop');
    await page.getByRole('button', { name: 'Create app' }).click();
    const link = page.getByTestId('apps-list').getByRole('link', { name: 'Shop' });
    await link.waitFor();
    await link.click();
    await page.getByRole('heading', { name: 'Shop', level: 1 }).waitFor();
    appId = page.url().split('/apps/')[1] ?? '';
    expect(appId).toMatch(/^[0-9a-f-]{36}$/);
    const channels = page.getByRole('group', { name: 'Channels' });
    expect(await channels.getByRole('button').allTextContents()).toEqual(['All', 'production']);
    await page.getByText('No releases yet.').waitFor();
    await h.screenshot('app-empty');
  });

  it('shows releases pushed through the API, newest first, with their statistics', async () => {
    const { page } = h;
    await push('1.0.0', 'First release');
    await push('1.1.0', 'Checkout fixes');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await card('1.1.0').waitFor();
    const versions = await page
      .getByTestId('release')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-version')));
    expect(versions).toEqual(['1.1.0', '1.0.0']);
    const text = (await card('1.1.0').textContent()) ?? '';
    for (const label of [
      'Downloads',
      'Activations',
      'Errors',
      'Targeted',
      'Received',
      'Adoption',
      'Running now',
      'Failure rate',
      'Served in full',
      'Served as patches',
    ]) {
      expect(text).toContain(label);
    }
    expect(text).toContain('Checkout fixes');
    expect(await card('1.1.0').getByText('100 %').count()).toBeGreaterThan(0);
    await h.screenshot('app-releases');
  });

  it('on hobby, a rollout change gets the 402 upgrade message and the rollout stays at 100 %', async () => {
    const release = card('1.1.0');
    await release.getByLabel('Rollout percentage', { exact: true }).fill('25');
    await release.getByRole('button', { name: 'Apply' }).click();
    const upgrade = release.getByTestId('upgrade-message');
    await upgrade.waitFor();
    expect(await upgrade.textContent()).toMatch(/Staged|rollout/i);
    expect(await release.getByLabel('Rollout percentage', { exact: true }).inputValue()).toBe('100');
    expect((await api.modules.get(releaseIds['1.1.0']!)).rollout_pct).toBe(100);
    await h.screenshot('rollout-hobby-upgrade');
  });

  it('on pro, the rollout changes in place', async () => {
    const { page } = h;
    await page.getByRole('link', { name: 'Plan', exact: true }).click();
    await page.getByRole('button', { name: 'Upgrade to Startup' }).click();
    await expect.poll(() => page.getByTestId('plan-badge').first().textContent()).toContain('pro');
    await page.goBack();
    const release = card('1.1.0');
    await release.getByLabel('Rollout percentage', { exact: true }).fill('25');
    await release.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(async () => (await api.modules.get(releaseIds['1.1.0']!)).rollout_pct).toBe(25);
    await expect.poll(() => release.locator('dd').nth(3).textContent()).toBe('25 %');
    expect(await release.getByTestId('upgrade-message').count()).toBe(0);
    await h.screenshot('rollout-pro');
  });

  it('rolls back after confirmation: the release turns inactive, the previous one stays active', async () => {
    const { page } = h;
    const release = card('1.1.0');
    await release.getByRole('button', { name: 'Roll back' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain('1.1.0');
    await h.screenshot('rollback-confirm');
    await dialog.getByRole('button', { name: 'Roll back' }).click();
    await expect.poll(() => release.getByText('inactive').count()).toBe(1);
    expect(await card('1.0.0').getByText('active', { exact: true }).count()).toBe(1);
    const after = await api.modules.get(releaseIds['1.1.0']!);
    expect(after.active).toBe(false);
    // An inactive release offers no rollout or rollback.
    expect(await release.getByRole('button', { name: 'Roll back' }).count()).toBe(0);
    await h.screenshot('rolled-back');
  });

  it('shows the release page at phone width without sideways scrolling', async () => {
    const { page } = h;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.reload();
      await card('1.0.0').waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await h.screenshot('phone-releases');
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });

  it('on team, the activity feed filters by app and by action', async () => {
    const { page } = h;
    const other = await api.apps.create('Other app');
    await page.getByRole('link', { name: 'Plan', exact: true }).click();
    await page.getByRole('button', { name: 'Upgrade to Enterprise' }).click();
    await expect.poll(() => page.getByTestId('plan-badge').first().textContent()).toContain('team');
    await page.getByRole('link', { name: 'Activity', exact: true }).click();
    const entries = page.getByTestId('activity-entry');
    const actions = () => entries.evaluateAll((els) => els.map((e) => e.getAttribute('data-action')));
    await expect.poll(async () => (await actions()).includes('module.rollback')).toBe(true);

    await page.getByRole('combobox', { name: 'Filter by app' }).selectOption({ label: 'Shop' });
    await expect
      .poll(actions)
      .toEqual(['module.rollback', 'rollout.change', 'module.push', 'module.push', 'app.create']);
    expect(await entries.first().textContent()).toContain('Shop');
    await page.getByRole('combobox', { name: 'Filter by action' }).selectOption('rollout.change');
    await expect.poll(actions).toEqual(['rollout.change']);
    expect(await entries.first().textContent()).toMatch(/100 → 25/);
    await h.screenshot('activity-app-filter');

    await page.getByRole('combobox', { name: 'Filter by app' }).selectOption(other.id);
    await page.getByRole('combobox', { name: 'Filter by action' }).selectOption('app.create');
    await expect.poll(actions).toEqual(['app.create']);
    expect(h.problems).toEqual([]);
  });
});
