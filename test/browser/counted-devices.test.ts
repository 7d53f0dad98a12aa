import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleHarness, signInThroughUi, startConsole } from '../helpers/browser.js';

let h: ConsoleHarness;
let appId = '';

beforeAll(async () => {
  h = await startConsole();
  await signInThroughUi(h.page, h.baseUrl, `devices-${Date.now()}@example.com`, 'correct horse battery');
  const raw = await h.page.evaluate(() => sessionStorage.getItem('ota.console.session'));
  const { token } = JSON.parse(raw ?? '{}') as { token: string };
  appId = (await h.client({ token }).apps.create('Device app')).id;
  // Three devices check in (hobby plan: each is counted against the cap of 100).
  for (const device of ['phone-a', 'phone-b', 'made-up-1']) {
    await h.client().devices.check({ app_id: appId, device_id: device });
  }
});

afterAll(async () => {
  await h?.close();
});

describe('console: counted devices on the Usage page', () => {
  it('lists the counted devices and releases one after confirmation; the count follows', async () => {
    const { page } = h;
    await page.getByRole('link', { name: 'Usage', exact: true }).click();
    const table = page.getByTestId('counted-devices');
    await table.getByRole('row', { name: /made-up-1/ }).waitFor();
    expect(await table.getByRole('row').count()).toBe(4); // header + three devices
    expect(await page.getByTestId('device-usage').textContent()).toContain('3 of 100');

    await table
      .getByRole('row', { name: /made-up-1/ })
      .getByRole('button', { name: 'Release' })
      .click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain('made-up-1');
    await dialog.getByRole('button', { name: 'Release' }).click();
    await expect.poll(() => table.getByRole('row').count()).toBe(3);
    expect(await table.textContent()).not.toContain('made-up-1');
    await expect.poll(() => page.getByTestId('device-usage').textContent()).toContain('2 of 100');
    await h.screenshot('counted-devices');
    expect(h.problems).toEqual([]);
  });

  it('fits a phone (390 px) without sideways scrolling', async () => {
    const { page } = h;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.reload();
      await page.getByTestId('counted-devices').waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await h.screenshot('phone-counted-devices');
    } finally {
      await page.setViewportSize({ width: 1280, height: 860 });
    }
  });
});
