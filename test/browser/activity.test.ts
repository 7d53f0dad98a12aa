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
    // 30 invitations: with account.create, login and plan.change, 33 entries, more than a page of 25.
    const raw = await page.evaluate(() => sessionStorage.getItem('ota.console.session'));
    const { token, workspaceId } = JSON.parse(raw ?? '{}') as { token: string; workspaceId: string };
    const api = h.client({ token });
    for (let i = 0; i < 30; i++)
      await api.members.invite(workspaceId, { email: `invitee-${i}@example.com`, role: 'viewer' });

    await page.getByRole('link', { name: 'Activity', exact: true }).click();
    const entries = page.getByTestId('activity-entry');
    await expect.poll(() => entries.count()).toBe(25);
    expect(await entries.first().getAttribute('data-action')).toBe('member.invite');
    expect(await entries.first().textContent()).toContain(email);
    expect(await entries.first().textContent()).toContain('invitee-29@example.com');
    await h.screenshot('activity-feed');

    await page.getByRole('button', { name: 'Older →' }).click();
    await page.getByText('Entries 26–33').waitFor();
    const older = await entries.evaluateAll((els) => els.map((e) => e.getAttribute('data-action')));
    expect(older).toEqual([...Array(5).fill('member.invite'), 'plan.change', 'login', 'account.create']);
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
