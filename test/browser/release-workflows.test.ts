import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OtaClient } from '../../client/index.js';
import { type ConsoleHarness, signInThroughUi, startConsole } from '../helpers/browser.js';

let h: ConsoleHarness;
let api: OtaClient;
let appId = '';
const ids: Record<string, string> = {};

beforeAll(async () => {
  h = await startConsole();
  await signInThroughUi(h.page, h.baseUrl, `workflows-${Date.now()}@example.com`, 'correct horse battery');
  const raw = await h.page.evaluate(() => sessionStorage.getItem('ota.console.session'));
  const session = JSON.parse(raw ?? '{}') as { token: string; workspace_id?: string };
  api = h.client({ token: session.token });
  const me = await api.auth.me();
  // Channels and staged rollouts are paid features.
  await api.workspaces.setPlan(me.workspace_id, 'pro');
  appId = (await api.apps.create('Workflows Shop')).id;
  for (const [version, channel] of [
    ['1.0.0', 'production'],
    ['1.1.0', 'production'],
    ['2.0.0', 'staging'],
  ] as const) {
    const bundle = await api.apps.uploadBundle(appId, randomBytes(256));
    ids[version] = (await api.modules.push({ app_id: appId, version, sha256: bundle.sha256, channel })).id;
  }
});

afterAll(async () => {
  await h?.close();
});

const card = (version: string, channel: string) =>
  h.page.locator(`[data-testid="release"][data-version="${version}"][data-channel="${channel}"]`);

describe('console: release workflows', () => {
  it('pauses and resumes a release from its card', async () => {
    const { page } = h;
    await page.goto(`${h.baseUrl}/apps/${appId}`);
    const release = card('1.1.0', 'production');
    await release.getByRole('button', { name: 'Pause' }).click();
    await release.getByTestId('paused').waitFor();
    expect((await api.modules.get(ids['1.1.0']!)).paused).toBe(true);
    await h.screenshot('release-paused');
    await release.getByRole('button', { name: 'Resume' }).click();
    await release.getByRole('button', { name: 'Pause' }).waitFor();
    expect(await release.getByTestId('paused').count()).toBe(0);
    expect((await api.modules.get(ids['1.1.0']!)).paused).toBe(false);
  });

  it('promotes a staging release to production: a new card naming where it came from', async () => {
    const { page } = h;
    const staging = card('2.0.0', 'staging');
    await staging.getByRole('button', { name: 'Promote…' }).click();
    const form = page.getByRole('form', { name: 'Promote 2.0.0' });
    await form.getByLabel('To channel').fill('production');
    await form.getByLabel('Rollout %').fill('20');
    await form.getByRole('button', { name: 'Promote' }).click();
    const promoted = card('2.0.0', 'production');
    await promoted.getByTestId('promoted-from').waitFor();
    expect(await promoted.getByTestId('promoted-from').textContent()).toContain('Promoted from staging');
    const { modules } = await api.apps.modules(appId, { channel: 'production' });
    expect(modules[0]).toMatchObject({
      version: '2.0.0',
      rollout_pct: 20,
      promoted_from: { module_id: ids['2.0.0'], channel: 'staging' },
    });
    await h.screenshot('release-promoted');
    // The same version again is refused with the server's message, and nothing is added.
    await staging.getByRole('button', { name: 'Promote…' }).click();
    await form.getByLabel('To channel').fill('production');
    await form.getByRole('button', { name: 'Promote' }).click();
    await form.getByText(/already exists on channel "production"/).waitFor();
    expect((await api.apps.modules(appId, { channel: 'production' })).modules).toHaveLength(3);
  });

  it('pins a device to a channel and to a release, lists and unpins it', async () => {
    const { page } = h;
    const panel = page.getByRole('region', { name: 'Pinned devices' });
    await panel.getByText('No pinned devices.').waitFor();
    await panel.getByLabel('Device id').fill('tester-phone');
    await panel.getByLabel('Channel', { exact: true }).fill('staging');
    await panel.getByRole('button', { name: 'Pin', exact: true }).click();
    const row = panel.getByTestId('device-overrides').getByRole('row', { name: /tester-phone/ });
    await row.getByText('channel staging').waitFor();

    await panel.getByLabel('Device id').fill('support-phone');
    await panel.getByLabel('Pin to').selectOption('release');
    await panel.locator('select[name="override-release"]').selectOption({ label: '1.0.0 (production)' });
    await panel.getByRole('button', { name: 'Pin', exact: true }).click();
    const pinned = panel.getByTestId('device-overrides').getByRole('row', { name: /support-phone/ });
    await pinned.getByText('release 1.0.0').waitFor();
    expect((await api.deviceOverrides.list(appId)).overrides.map((o) => [o.device_id, o.module_id])).toEqual([
      ['support-phone', ids['1.0.0']],
      ['tester-phone', null],
    ]);
    await h.screenshot('devices-pinned');

    await row.getByRole('button', { name: 'Unpin' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Unpin' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await api.deviceOverrides.list(appId)).overrides.map((o) => o.device_id)).toEqual([
      'support-phone',
    ]);
  });

  it('lets devices move themselves onto a channel; production always allows it', async () => {
    const panel = h.page.getByRole('region', { name: 'Channels' });
    const production = panel.getByLabel('Devices may move themselves onto production');
    expect(await production.isChecked()).toBe(true);
    expect(await production.isDisabled()).toBe(true);
    const staging = panel.getByLabel('Devices may move themselves onto staging');
    expect(await staging.isChecked()).toBe(false);
    // The box follows the server's answer (a refused change leaves it as it was).
    await staging.click();
    await expect.poll(() => staging.isChecked()).toBe(true);
    await expect
      .poll(async () => (await api.apps.channels(appId)).channels)
      .toContainEqual({
        name: 'staging',
        allow_device_self_assign: true,
      });
    expect(h.problems).toEqual([]);
  });
});
