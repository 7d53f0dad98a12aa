import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleHarness, SCREENSHOT_DIR, signInThroughUi, startConsole } from '../helpers/browser.js';

let h: ConsoleHarness;
const stamp = Date.now();
const ownerEmail = `inviting-owner-${stamp}@example.com`;
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  h = await startConsole();
  await signInThroughUi(h.page, h.baseUrl, ownerEmail, PASSWORD);
  const { token, workspaceId } = await session(h.page);
  await h.client({ token }).workspaces.setPlan(workspaceId, 'pro');
});

afterAll(async () => {
  await h?.close();
});

async function session(page: Page): Promise<{ token: string; workspaceId: string }> {
  const raw = await page.evaluate(() => sessionStorage.getItem('ota.console.session'));
  return JSON.parse(raw ?? '{}') as { token: string; workspaceId: string };
}

/** The owner invites `email` from the Team page and reads the link the page shows once. */
async function inviteThroughUi(email: string): Promise<string> {
  const { page } = h;
  await page.getByRole('link', { name: 'Team', exact: true }).click();
  const form = page.getByRole('form', { name: 'Invite a member' });
  await form.getByLabel('E-mail').fill(email);
  await form.getByLabel('Role').selectOption('developer');
  await form.getByRole('button', { name: 'Invite' }).click();
  const box = page.getByTestId('invitation-link').filter({ hasText: `Invitation link for ${email}` });
  await box.waitFor();
  const url = (await page.getByTestId('invitation-url').textContent()) ?? '';
  expect(url).toMatch(new RegExp(`^${h.baseUrl}/invitation#token=ota_inv_[\\w-]+$`));
  return url;
}

/** A new tab: its own sessionStorage, so nobody is signed in there. */
async function freshTab(width: number): Promise<Page> {
  const tab = await h.browser.newPage();
  await tab.setViewportSize({ width, height: width < 500 ? 844 : 860 });
  tab.on('pageerror', (err) => h.problems.push(`page error: ${err.message}`));
  return tab;
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

describe('console: invitations', () => {
  for (const width of [1280, 390]) {
    it(`at ${width} px: the owner copies the link; the invitee opens it, signs up and accepts`, async () => {
      const invitee = `invitee-${width}-${stamp}@example.com`;
      await h.page.setViewportSize({ width, height: width < 500 ? 844 : 860 });
      const url = await inviteThroughUi(invitee);
      const row = h.page.getByTestId('members').getByRole('row', { name: new RegExp(invitee) });
      expect(await row.textContent()).toContain('invited');
      await expectNoSidewaysScroll(h.page);
      await h.screenshot(`invitation-link-${width}`);
      await h.page.getByRole('button', { name: 'Done' }).click();
      expect(await h.page.getByTestId('invitation-link').count()).toBe(0);

      const tab = await freshTab(width);
      try {
        await tab.goto(url);
        await tab.getByRole('heading', { name: 'Sign in to accept your invitation' }).waitFor();
        await expectNoSidewaysScroll(tab);
        await tab.getByLabel('E-mail').fill(invitee);
        await tab.getByLabel('Password').fill(PASSWORD); // a new address: this makes the account
        await tab.getByRole('button', { name: 'Sign in' }).click();
        const card = tab.getByTestId('invitation');
        await card.waitFor();
        expect(await card.textContent()).toContain(invitee);
        await expectNoSidewaysScroll(tab);
        await tab.screenshot({
          path: join(SCREENSHOT_DIR, `invitation-accept-${width}.png`),
          fullPage: true,
        });
        await card.getByRole('button', { name: 'Accept invitation' }).click();
        // Joined and switched: the inviting workspace (on pro) is the one shown, and the token left the URL.
        await tab.getByRole('navigation', { name: 'Sections' }).waitFor();
        await expect.poll(() => tab.getByTestId('plan-badge').first().textContent()).toContain('pro');
        expect(tab.url()).not.toContain('token=');
        const { workspaceId } = await session(tab);
        expect(workspaceId).toBe((await session(h.page)).workspaceId);
      } finally {
        await tab.close();
      }

      // The owner's list shows the new member active (read again from the server).
      await h.page.reload();
      await expect
        .poll(async () =>
          h.page
            .getByTestId('members')
            .getByRole('row', { name: new RegExp(invitee) })
            .textContent(),
        )
        .toContain('active');
    });
  }

  it('someone signed in with another address is refused, and can sign in as someone else', async () => {
    const invitee = `right-${stamp}@example.com`;
    const url = await inviteThroughUi(invitee);
    const tab = await freshTab(1280);
    try {
      await signInThroughUi(tab, h.baseUrl, `wrong-${stamp}@example.com`, PASSWORD);
      await tab.goto(url);
      const card = tab.getByTestId('invitation');
      await card.getByRole('button', { name: 'Accept invitation' }).click();
      await card.getByRole('alert').waitFor();
      expect(await card.getByRole('alert').textContent()).toContain('another e-mail address');
      await card.getByRole('button', { name: 'Sign in as someone else' }).click();
      await tab.getByRole('heading', { name: 'Sign in to accept your invitation' }).waitFor();
      // Still the invitation's page: signing in as the invitee now lets it accept.
      await tab.getByLabel('E-mail').fill(invitee);
      await tab.getByLabel('Password').fill(PASSWORD);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.getByTestId('invitation').getByRole('button', { name: 'Accept invitation' }).click();
      await tab.getByRole('navigation', { name: 'Sections' }).waitFor();
    } finally {
      await tab.close();
    }
    expect(h.problems).toEqual([]);
  });

  it('a used link says so', async () => {
    const invitee = `twice-${stamp}@example.com`;
    const url = await inviteThroughUi(invitee);
    const signin = await h.client().auth.signin(invitee, PASSWORD);
    const token = new URL(url).hash.replace('#token=', '');
    await h.client({ token: signin.token }).invitations.accept(token);
    const tab = await freshTab(390);
    try {
      await signInThroughUi(tab, h.baseUrl, invitee, PASSWORD);
      await tab.goto(url);
      const card = tab.getByTestId('invitation');
      await card.getByRole('button', { name: 'Accept invitation' }).click();
      await card.getByRole('alert').waitFor();
      expect(await card.getByRole('alert').textContent()).toContain('already accepted');
      await expectNoSidewaysScroll(tab);
    } finally {
      await tab.close();
    }
    expect(h.problems).toEqual([]);
  });
});
