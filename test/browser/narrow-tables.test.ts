import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleHarness, signInThroughUi, startConsole } from '../helpers/browser.js';

let h: ConsoleHarness;
const owner = `owner.with.a.long.address-${Date.now()}@example-company.com`;

beforeAll(async () => {
  h = await startConsole();
  await signInThroughUi(h.page, h.baseUrl, owner, 'correct horse battery');
  const raw = await h.page.evaluate(() => sessionStorage.getItem('ota.console.session'));
  const api = h.client({ token: (JSON.parse(raw ?? '{}') as { token: string }).token });
  const workspaceId = (await api.auth.me()).workspace_id;
  // Enterprise: its column is the last of the plan table, the one a phone used to cut off.
  await api.workspaces.setPlan(workspaceId, 'team');
  await api.members.invite(workspaceId, { email: 'second.member@example-company.com', role: 'developer' });
  await api.apiKeys.create(workspaceId, { name: 'continuous delivery pipeline', role: 'developer' });
});

afterAll(async () => {
  await h?.close();
});

/** Lines of text an element takes, from its height and its line height. */
const lines = (selector: string) =>
  h.page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const style = getComputedStyle(el);
      const lineHeight = Number.parseFloat(style.lineHeight) || Number.parseFloat(style.fontSize) * 1.2;
      const padding = Number.parseFloat(style.paddingTop) + Number.parseFloat(style.paddingBottom);
      return Math.round((el.getBoundingClientRect().height - padding) / lineHeight);
    });

/** How far a table reaches past the box that holds it (0: it fits; more: it scrolls sideways). */
const overflow = (testId: string) =>
  h.page.getByTestId(testId).evaluate((table) => {
    const holder = table.parentElement!;
    return Math.max(0, table.scrollWidth - holder.clientWidth);
  });

describe('console: tables that fit a phone (390 px) and a desktop (1400 px)', () => {
  for (const width of [1400, 390]) {
    it(`members: e-mails read as text, not a column of single characters (${width} px)`, async () => {
      await h.page.setViewportSize({ width, height: 900 });
      await h.page.goto(`${h.baseUrl}/team`);
      await h.page.getByTestId('members').waitFor();
      const cell = `[data-testid="members"] tbody tr:first-child td:first-child`;
      expect(await h.page.locator(cell).first().textContent()).toContain('@example-company.com');
      await h.screenshot(`narrow-tables-members-${width}`);
      // At least 15 characters a line: a squeezed column used to show one or two.
      const text = (await h.page.locator(cell).first().textContent()) ?? '';
      expect(text.length / (await lines(cell))).toBeGreaterThanOrEqual(15);
      expect(await overflow('members')).toBe(0);
    });

    it(`API keys: the table stays inside its box (${width} px)`, async () => {
      await h.page.setViewportSize({ width, height: 900 });
      await h.page.goto(`${h.baseUrl}/team`);
      await h.page.getByTestId('api-keys').waitFor();
      expect(await overflow('api-keys')).toBe(0);
      const page = await h.page.evaluate(() => document.documentElement.scrollWidth);
      expect(page).toBeLessThanOrEqual(width);
      await h.screenshot(`narrow-tables-api-keys-${width}`);
    });

    it(`plan: the current plan's column is in sight (${width} px)`, async () => {
      await h.page.setViewportSize({ width, height: 900 });
      await h.page.goto(`${h.baseUrl}/plan`);
      const current = h.page.locator('table.plans thead th.current');
      await current.waitFor();
      expect(await current.textContent()).toContain('Enterprise');
      await expect
        .poll(async () => {
          const box = await current.boundingBox();
          return box !== null && box.x >= 0 && box.x + box.width <= width;
        })
        .toBe(true);
      await h.screenshot(`narrow-tables-plan-${width}`);
      expect(h.problems).toEqual([]);
    });
  }
});
