import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleHarness, signInThroughUi, startConsole } from '../helpers/browser.js';

let h: ConsoleHarness;
const email = `activity-${Date.now()}@example.com`;
const password = 'correct horse battery';

beforeAll(async () => {
  h = await startConsole();
  await signInThroughUi(h.page, h.baseUrl, email, password);
});

afterAll(async () => {
  await h?.close();
});

describe('console: activity feed', () => {
  it('on hobby shows the 402 upgrade message instead of the feed', async () => {
    const { page } = h;
    await page.getByRole('link', { name: 'Activity', exact: true }).click();
    const upgrade = page.getByTestId('upgrade-message');
    await upgrade.waitFor();
    expect(await upgrade.textContent()).toMatch(/audit log|activity/i);
    expect(await page.getByTestId('activity').count()).toBe(0);
    await h.screenshot('activity-hobby-upgrade');
  });

  it('on team reads the feed newest first, filters by action and pages through it', async () => {
    const { page } = h;
    await page.getByRole('link', { name: 'Plan', exact: true }).click();
    await page.getByRole('button', { name: 'Upgrade to Enterprise' }).click();
    await expect.poll(() => page.getByTestId('plan-badge').first().textContent()).toContain('team');
    // 30 more sign-ins: more than one page of 25 entries.
    for (let i = 0; i < 30; i++) await h.client().auth.signin(email, password);

    await page.getByRole('link', { name: 'Activity', exact: true }).click();
    const entries = page.getByTestId('activity-entry');
    await expect.poll(() => entries.count()).toBe(25);
    expect(await entries.first().getAttribute('data-action')).toBe('login');
    expect(await entries.first().textContent()).toContain(email);
    await h.screenshot('activity-feed');

    await page.getByRole('button', { name: 'Older →' }).click();
    await page.getByText('Entries 26–33').waitFor();
    const older = await entries.evaluateAll((els) => els.map((e) => e.getAttribute('data-action')));
    // login x 31, account.create, plan.change: 33 entries, the oldest is account.create.
    expect(older).toHaveLength(8);
    expect(older).toContain('account.create');
    expect(await page.getByRole('button', { name: 'Older →' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: '← Newer' }).click();
    await expect.poll(() => entries.count()).toBe(25);

    await page.getByRole('combobox', { name: 'Filter by action' }).selectOption('plan.change');
    await expect.poll(() => entries.count()).toBe(1);
    const change = entries.first();
    expect(await change.getAttribute('data-action')).toBe('plan.change');
    expect(await change.textContent()).toMatch(/hobby/);
    expect(await change.textContent()).toMatch(/team/);
    await h.screenshot('activity-filtered');
    expect(h.problems).toEqual([]);
  });
});
