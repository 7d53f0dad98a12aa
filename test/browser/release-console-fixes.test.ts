import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceEvent, OtaClient } from '../../client/index.js';
import { type ConsoleHarness, signInThroughUi, startConsole, waitForSeries } from '../helpers/browser.js';
import { waitFor } from '../helpers/wait.js';

let h: ConsoleHarness;
let api: OtaClient;
let appId = '';
let workspaceId = '';

const WIDTHS = [1400, 390] as const;

beforeAll(async () => {
  // The ingest worker moves accepted device events into ClickHouse, where the statistics come from.
  h = await startConsole({ workers: ['ingest'], env: { INGEST_FLUSH_MS: '100' } });
  await h.browser.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.baseUrl });
  await signInThroughUi(h.page, h.baseUrl, `fixes-${Date.now()}@example.com`, 'correct horse battery');
  const raw = await h.page.evaluate(() => sessionStorage.getItem('ota.console.session'));
  const session = JSON.parse(raw ?? '{}') as { token: string; workspaceId?: string; workspace_id?: string };
  api = h.client({ token: session.token });
  workspaceId = (await api.auth.me()).workspace_id;
  // Staged rollouts need the Startup plan.
  await api.workspaces.setPlan(workspaceId, 'pro');
  appId = (await api.apps.create('Fixes app')).id;
});

afterAll(async () => {
  await h?.close();
});

async function push(version: string): Promise<string> {
  const bundle = await api.apps.uploadBundle(appId, randomBytes(128));
  return (await api.modules.push({ app_id: appId, version, sha256: bundle.sha256 })).id;
}

function events(moduleId: string, type: DeviceEvent['type'], n: number): DeviceEvent[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${moduleId}-${type}-${i}`,
    device_id: `device-${i}`,
    module_id: moduleId,
    type,
  }));
}

const card = (version: string) => h.page.locator(`[data-testid="release"][data-version="${version}"]`);

async function openApp() {
  await h.page.goto(`${h.baseUrl}/apps/${appId}`);
  await card('1.0.0').waitFor();
}

describe('console: the release page at 1400 and 390 px', () => {
  let healthy = '';
  let failing = '';

  beforeAll(async () => {
    healthy = await push('1.0.0');
    failing = await push('1.1.0');
    const device = h.client();
    await device.devices.events(appId, [...events(healthy, 'activation', 100)]);
    // 80 activations and 20 errors: a 20 % failure rate.
    await device.devices.events(appId, [
      ...events(failing, 'activation', 80),
      ...events(failing, 'error', 20),
    ]);
    await waitFor('the 20 errors in the statistics', async () => {
      const [ok, bad] = await Promise.all([api.modules.get(healthy), api.modules.get(failing)]);
      return ok.stats.activations === 100 && bad.stats.errors === 20;
    });
    await waitForSeries(api, appId, { activations: 180, errors: 20 });
  });

  for (const width of WIDTHS) {
    it(`draws the error rate as a percentage on its own axis (${width} px)`, async () => {
      await h.page.setViewportSize({ width, height: 900 });
      await openApp();
      const chart = h.page.getByTestId('stats-chart');
      await chart.locator('canvas').waitFor();
      // All releases: 20 errors of 200 events in the bucket, 10 %; a count of 20 beside 180 activations
      // would have been a flat line on one axis.
      await expect.poll(async () => chart.getAttribute('data-peak-error-rate')).toBe('10.0');
      await expect.poll(async () => (await chart.textContent()) ?? '').toContain('Error rate');
      await h.page
        .getByRole('combobox', { name: 'Release shown in the chart' })
        .selectOption({ label: '1.1.0 (production)' });
      await expect.poll(async () => chart.getAttribute('data-peak-error-rate')).toBe('20.0');
      await h.screenshot(`console-fixes-error-rate-${width}`);
    });

    it(`explains a rollout of 150 next to the field instead of silently disabling Apply (${width} px)`, async () => {
      await h.page.setViewportSize({ width, height: 900 });
      await openApp();
      const field = card('1.0.0').getByRole('textbox', { name: 'Rollout percentage' });
      await field.fill('150');
      const message = card('1.0.0').getByTestId('rollout-error');
      await expect.poll(async () => message.textContent()).toBe('Enter a percentage from 0 to 100.');
      expect(await message.isVisible()).toBe(true);
      expect(await field.getAttribute('aria-describedby')).toBe(await message.getAttribute('id'));
      // Beside the field: its top is within a few lines of the field's bottom.
      const [box, messageBox] = [await field.boundingBox(), await message.boundingBox()];
      expect(messageBox!.y - (box!.y + box!.height)).toBeLessThan(60);
      await h.screenshot(`console-fixes-rollout-150-${width}`);
      await field.fill('40');
      await expect.poll(async () => message.count()).toBe(0);
    });

    it(`shows the module id and version in full, with Copy buttons (${width} px)`, async () => {
      await h.page.setViewportSize({ width, height: 900 });
      await openApp();
      const id = card('1.0.0').getByTestId('module-id');
      expect(await id.textContent()).toBe(healthy);
      expect(await card('1.0.0').getByTestId('module-version').textContent()).toBe('1.0.0');
      await card('1.0.0')
        .getByRole('button', { name: `Copy ${healthy}` })
        .click();
      await expect.poll(async () => h.page.evaluate(() => navigator.clipboard.readText())).toBe(healthy);
      // The id fits the card: nothing is wider than the phone's screen.
      const overflow = await h.page.evaluate(() => document.documentElement.scrollWidth);
      expect(overflow).toBeLessThanOrEqual(width);
      await h.screenshot(`console-fixes-module-id-${width}`);
    });
  }

  it('hides "consider rolling back" on a release already rolled back, at both widths', async () => {
    await h.page.setViewportSize({ width: 1400, height: 900 });
    await openApp();
    expect(await card('1.1.0').getByTestId('failure-hint').count()).toBe(1);
    await api.modules.rollback(failing);
    for (const width of WIDTHS) {
      await h.page.setViewportSize({ width, height: 900 });
      await openApp();
      await card('1.1.0').waitFor();
      expect((await api.modules.get(failing)).stats.failure_rate).toBeGreaterThan(0.02);
      expect(await card('1.1.0').getByTestId('failure-hint').count()).toBe(0);
      await h.screenshot(`console-fixes-rolled-back-${width}`);
    }
    expect(h.problems).toEqual([]);
  });
});
