import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleHarness, signInThroughUi, startConsole } from '../helpers/browser.js';

let h: ConsoleHarness;
const stamp = Date.now();
const ownerEmail = `team-owner-${stamp}@example.com`;
const inviteeEmail = `teammate-${stamp}@example.com`;

beforeAll(async () => {
  h = await startConsole();
  await signInThroughUi(h.page, h.baseUrl, ownerEmail, 'correct horse battery');
});

afterAll(async () => {
  await h?.close();
});

describe('console: plan and members', () => {
  it('on hobby, an invitation gets the 402 upgrade message and the member list is unchanged', async () => {
    const { page } = h;
    await page.getByRole('link', { name: 'Team', exact: true }).click();
    const members = page.getByTestId('members');
    await members.getByRole('row', { name: new RegExp(ownerEmail) }).waitFor();
    const form = page.getByRole('form', { name: 'Invite a member' });
    await form.getByLabel('E-mail').fill(inviteeEmail);
    await form.getByRole('button', { name: 'Invite' }).click();
    const upgrade = page.getByTestId('upgrade-message');
    await upgrade.waitFor();
    expect(await upgrade.textContent()).toMatch(/Upgrade/);
    expect(await members.getByRole('row').count()).toBe(2); // header + owner
    await h.screenshot('members-hobby-upgrade');
  });

  it('the owner upgrades to pro from the plan table; the badge follows without a reload', async () => {
    const { page } = h;
    await page.getByTestId('upgrade-message').getByRole('link', { name: 'See plans' }).click();
    await page.getByRole('button', { name: 'Upgrade to Startup' }).click();
    await expect.poll(() => page.getByTestId('plan-badge').first().textContent()).toContain('pro');
    expect(await page.getByRole('button', { name: 'Upgrade to Enterprise' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Switch to Hobby' }).count()).toBe(1);
    await h.screenshot('plan-upgraded-pro');
  });

  it('on pro, invites a member, changes the role and removes them after confirmation', async () => {
    const { page } = h;
    await page.getByRole('link', { name: 'Team', exact: true }).click();
    const form = page.getByRole('form', { name: 'Invite a member' });
    await form.getByLabel('E-mail').fill(inviteeEmail);
    await form.getByLabel('Role').selectOption('developer');
    await form.getByRole('button', { name: 'Invite' }).click();
    const row = page.getByTestId('members').getByRole('row', { name: new RegExp(inviteeEmail) });
    await row.waitFor();
    expect(await row.textContent()).toContain('invited');

    await row.getByRole('combobox', { name: `Role of ${inviteeEmail}` }).selectOption('viewer');
    const { token, workspaceId } = await session();
    await expect
      .poll(async () => {
        const { members } = await h.client({ token }).members.list(workspaceId);
        return members.find((m) => m.email === inviteeEmail)?.role;
      })
      .toBe('viewer');
    await h.screenshot('members-invited');

    await row.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => row.count()).toBe(0);
    const { members } = await h.client({ token }).members.list(workspaceId);
    expect(members.map((m) => m.email)).toEqual([ownerEmail]);
  });

  it('switches to another workspace the user belongs to; there an admin sees no plan actions', async () => {
    const { page } = h;
    const other = h.client();
    const signin = await other.auth.signin(`other-owner-${stamp}@example.com`, 'correct horse battery');
    other.setCredentials({ token: signin.token });
    await other.workspaces.setPlan(signin.workspace_id, 'team');
    const invited = await other.members.invite(signin.workspace_id, { email: ownerEmail, role: 'admin' });
    // Joining takes the invitee's own acceptance (test/browser/invitations.test.ts does it in the page).
    await h.client({ token: (await session()).token }).invitations.accept(invited.invitation.token);

    await page.reload();
    const switcher = page.getByRole('combobox', { name: 'Workspace' });
    await expect.poll(() => switcher.locator('option').count()).toBe(2);
    await switcher.selectOption(signin.workspace_id);
    await expect.poll(() => page.getByTestId('plan-badge').first().textContent()).toContain('team');
    expect((await session()).workspaceId).toBe(signin.workspace_id);

    await page.getByRole('link', { name: 'Plan', exact: true }).click();
    await page.getByText('Only the workspace owner can change the plan.').waitFor();
    expect(await page.getByRole('button', { name: /Upgrade to|Switch to/ }).count()).toBe(0);
    await h.screenshot('workspace-switched-admin');

    await page.getByRole('link', { name: 'Usage', exact: true }).click();
    const devices = page.getByTestId('device-usage');
    await devices.waitFor();
    expect(await devices.textContent()).toContain('0 of unlimited');
    expect(h.problems).toEqual([]);
  });
});

async function session(): Promise<{ token: string; workspaceId: string }> {
  const raw = await h.page.evaluate(() => sessionStorage.getItem('ota.console.session'));
  return JSON.parse(raw ?? '{}') as { token: string; workspaceId: string };
}
