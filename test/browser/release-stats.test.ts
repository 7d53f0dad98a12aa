import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceEvent, OtaClient } from '../../client/index.js';
import { type ConsoleHarness, signInThroughUi, startConsole, waitForSeries } from '../helpers/browser.js';

let h: ConsoleHarness;
let api: OtaClient;
let appId = '';

beforeAll(async () => {
  // The ingest worker moves accepted device events into ClickHouse, where the statistics come from.
  h = await startConsole({ workers: ['ingest'], env: { INGEST_FLUSH_MS: '100' } });
  await signInThroughUi(h.page, h.baseUrl, `stats-${Date.now()}@example.com`, 'correct horse battery');
  const raw = await h.page.evaluate(() => sessionStorage.getItem('ota.console.session'));
  api = h.client({ token: (JSON.parse(raw ?? '{}') as { token: string }).token });
  appId = (await api.apps.create('Stats app')).id;
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
const stat = async (version: string, label: string) =>
  card(version)
    .locator('div', { has: h.page.locator('dt', { hasText: label }) })
    .locator('dd')
    .textContent();

describe('console: release statistics from device events', () => {
  it('shows downloads, activations, errors, adoption and failure rate, the 2 % hint and the chart', async () => {
    const healthy = await push('2.0.0');
    const failing = await push('2.1.0');
    const device = h.client();
    await device.devices.events(appId, [
      ...events(healthy, 'download', 20),
      ...events(healthy, 'activation', 20),
    ]);
    await device.devices.events(appId, [
      ...events(failing, 'download', 50),
      ...events(failing, 'activation', 40),
      ...events(failing, 'error', 3),
    ]);
    await expect
      .poll(async () => (await api.modules.get(failing)).stats.errors, { timeout: 30_000, interval: 250 })
      .toBe(3);
    await expect
      .poll(async () => (await api.modules.get(healthy)).stats.activations, {
        timeout: 30_000,
        interval: 250,
      })
      .toBe(20);
    await waitForSeries(api, appId, { activations: 60, errors: 3 });

    const { page } = h;
    // The app was made through the API after the apps page loaded: the page learns of it on a reload.
    await page.reload();
    await page.getByTestId('apps-list').getByRole('link', { name: 'Stats app' }).click();
    await card('2.1.0').waitFor();
    expect(await stat('2.1.0', 'Downloads')).toBe('50');
    expect(await stat('2.1.0', 'Activations')).toBe('40');
    expect(await stat('2.1.0', 'Errors')).toBe('3');
    expect(await stat('2.1.0', 'Adoption')).toBe('80 %');
    // No device has made an update check: none runs it now, whatever the lifetime adoption.
    expect(await stat('2.1.0', 'Running now')).toBe('0');
    expect(await stat('2.1.0', 'Failure rate')).toBe('7 %');
    expect(await card('2.1.0').getByTestId('failure-hint').count()).toBe(1);
    expect(await stat('2.0.0', 'Failure rate')).toBe('0 %');
    expect(await card('2.0.0').getByTestId('failure-hint').count()).toBe(0);

    const chart = page.getByTestId('stats-chart');
    await chart.locator('canvas').waitFor();
    await expect.poll(async () => Number(await chart.getAttribute('data-activations'))).toBe(60);
    expect(Number(await chart.getAttribute('data-errors'))).toBe(3);
    await h.screenshot('release-stats');

    // One release in the chart: its own series only.
    await page
      .getByRole('combobox', { name: 'Release shown in the chart' })
      .selectOption({ label: '2.0.0 (production)' });
    await expect.poll(async () => Number(await chart.getAttribute('data-activations'))).toBe(20);
    expect(Number(await chart.getAttribute('data-errors'))).toBe(0);
    await page.getByRole('combobox', { name: 'Time range' }).selectOption({ label: 'Last hour' });
    await expect.poll(async () => Number(await chart.getAttribute('data-activations'))).toBe(20);
    expect(h.problems).toEqual([]);
  });

  it('shows the app at phone width without sideways scrolling', async () => {
    const { page } = h;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.reload();
      await card('2.1.0').waitFor();
      await page.getByTestId('stats-chart').locator('canvas').waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await h.screenshot('phone-release-stats');
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });
});
