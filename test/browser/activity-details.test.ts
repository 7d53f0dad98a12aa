import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleHarness, signInThroughUi, startConsole } from '../helpers/browser.js';

let h: ConsoleHarness;

beforeAll(async () => {
  h = await startConsole();
  await signInThroughUi(h.page, h.baseUrl, `activity-${Date.now()}@example.com`, 'correct horse battery');
  const raw = await h.page.evaluate(() => sessionStorage.getItem('ota.console.session'));
  const api = h.client({ token: (JSON.parse(raw ?? '{}') as { token: string }).token });
  // The audit log is an Enterprise feature.
  await api.workspaces.setPlan((await api.auth.me()).workspace_id, 'team');
  const app = await api.apps.create('Activity app');
  const push = async (version: string) => {
    const bundle = await api.apps.uploadBundle(app.id, randomBytes(64));
    return api.modules.push({ app_id: app.id, version, sha256: bundle.sha256 });
  };
  await push('1.0.0');
  const second = await push('1.1.0');
  // A rollback's details hold objects (the release rolled back, the one now served).
  await api.modules.rollback(second.id);
});

afterAll(async () => {
  await h?.close();
});

describe('console: Activity reads as text, not JSON', () => {
  for (const width of [1400, 390]) {
    it(`shows a rollback's releases as "module id: …; version: …" (${width} px)`, async () => {
      await h.page.setViewportSize({ width, height: 900 });
      await h.page.goto(`${h.baseUrl}/activity`);
      const entry = h.page.locator('[data-testid="activity-entry"][data-action="module.rollback"]');
      await entry.waitFor();
      const values = await entry.locator('dd').allTextContents();
      expect(values.some((v) => v.includes('version: 1.1.0'))).toBe(true);
      expect(values.some((v) => v.includes('version: 1.0.0'))).toBe(true);
      for (const value of values) expect(value).not.toMatch(/[{}"]/);
      expect(await h.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await h.screenshot(`activity-details-${width}`);
      expect(h.problems).toEqual([]);
    });
  }
});
