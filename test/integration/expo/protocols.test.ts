import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileContext } from '../../helpers/context.js';
import { eventually } from '../../helpers/devices.js';
import { type StartedWorkers, startAllWorkers } from '../../helpers/workers.js';
import { expoHeaders, expoWorld, getManifest, partsOf, pushExport } from './expo-world.js';

/** Expo releases beside bundle releases on one channel: each protocol sees only its own. */
let workers: StartedWorkers | undefined;

const ctx = fileContext({ listen: true });
beforeAll(async () => {
  workers = await startAllWorkers(ctx);
}, 120_000);

afterAll(async () => {
  await workers?.stop();
});

async function codePushCheck(key: string) {
  const query = new URLSearchParams({
    deployment_key: key,
    app_version: '1.0.0',
    client_unique_id: 'device-1',
  });
  const res = await fetch(`${ctx.url}/v0.1/public/codepush/update_check?${query}`);
  expect(res.status).toBe(200);
  return (await res.json()).update_info as { is_available: boolean; label?: string; is_mandatory?: boolean };
}

describe('one channel, three protocols', () => {
  it('keeps an Expo release out of CodePush (its reports by label included) and /updates/check', async () => {
    const world = await expoWorld(ctx, 'team');
    const { key } = await world.client.deploymentKeys.create(world.appId);
    const bytes = new TextEncoder().encode('// a CodePush bundle');
    const uploaded = await world.client.apps.uploadBundle(world.appId, bytes);
    const bundle = await world.client.modules.push({
      app_id: world.appId,
      version: 'v5',
      sha256: uploaded.sha256,
    });
    // An Expo release pushed later on the same channel, mandatory.
    const exported = await pushExport(world, { version: 'e1', mandatory: true });

    expect(await codePushCheck(key)).toMatchObject({ is_available: true, label: 'v5', is_mandatory: false });
    const check = await world.client.devices.check({ app_id: world.appId, device_id: 'sdk-1' });
    expect(check.update?.module_id).toBe(bundle.id);
    const { manifest } = await partsOf(await getManifest(ctx, world.appId, expoHeaders('ios')));
    expect(manifest!.json.id).toBe(exported.id);

    // A report naming the Expo release's label counts nothing (no CodePush device runs it); one naming
    // the bundle release's counts for it. Reports are stored in order: the second is the sentinel.
    for (const label of ['e1', 'v5']) {
      const report = await fetch(`${ctx.url}/v0.1/public/codepush/report_status/deploy`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          deployment_key: key,
          app_version: '1.0.0',
          client_unique_id: 'device-1',
          label,
          status: 'DeploymentSucceeded',
        }),
      });
      expect(report.status).toBeLessThan(300);
    }
    await eventually('the bundle release activation', async () =>
      (await world.client.modules.get(bundle.id)).stats.activations === 1 ? true : undefined,
    );
    expect((await world.client.modules.get(exported.id)).stats.activations).toBe(0);
  });
});
