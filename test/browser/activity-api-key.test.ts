import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleHarness, signInThroughUi, startConsole } from '../helpers/browser.js';

let h: ConsoleHarness;
const owner = `key-maker-${Date.now()}@example.com`;

beforeAll(async () => {
  h = await startConsole();
  await signInThroughUi(h.page, h.baseUrl, owner, 'correct horse battery');
  const raw = await h.page.evaluate(() => sessionStorage.getItem('ota.console.session'));
  const member = h.client({ token: (JSON.parse(raw ?? '{}') as { token: string }).token });
  const workspaceId = (await member.auth.me()).workspace_id;
  // The audit log is an Enterprise feature.
  await member.workspaces.setPlan(workspaceId, 'team');
  const created = await member.apiKeys.create(workspaceId, { name: 'release pipeline', role: 'developer' });
  // The entry is made through the API with the key itself, as a CI job would make it.
  const pipeline = h.client({ apiKey: created.key });
  await pipeline.apps.create('Pipeline app');
});

afterAll(async () => {
  await h?.close();
});

describe('console: Activity names the API key behind a change', () => {
  for (const width of [1400, 390]) {
    it(`shows "api-key (name, created by …)" for an entry made with a key (${width} px)`, async () => {
      await h.page.setViewportSize({ width, height: 900 });
      await h.page.goto(`${h.baseUrl}/activity`);
      const entry = h.page.locator('[data-testid="activity-entry"][data-action="app.create"]');
      await entry.waitFor();
      const actor = entry.getByTestId('activity-actor');
      expect(await actor.textContent()).toBe(`api-key (release pipeline, created by ${owner})`);
      // The key's record names the actor; it is not repeated as raw details.
      for (const value of await entry.locator('dd').allTextContents()) expect(value).not.toMatch(/[{}"]/);
      // The actor's line stays on the screen at phone width.
      const box = await actor.boundingBox();
      expect(box !== null && box.x >= 0 && box.x + box.width <= width).toBe(true);
      expect(await h.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await h.screenshot(`activity-api-key-${width}`);
      expect(h.problems).toEqual([]);
    });
  }
});
