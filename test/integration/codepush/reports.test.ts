import type { Package, RemotePackage } from 'code-push/script/acquisition-sdk.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { reportEventId } from '../../../src/codepush/codepush.service.js';
import { SpikeEvaluator } from '../../../src/spikes/spike.evaluator.js';
import { fileContext } from '../../helpers/context.js';
import { release, rollback, setPlan, type Workspace, workspaceWithApp } from '../releases/fixtures.js';
import { drainIngest, storedEvents } from '../telemetry/fixtures.js';
import { settle } from '../updates/seed.js';
import { AcquisitionStatus, createKey, Device } from './harness.js';

/** Download and deploy reports of the acquisition SDK feed the statistics of the release named by label. */
let url: string;
const ctx = fileContext({ listen: true });
beforeAll(async () => {
  url = ctx.url!;
});

async function pushed(ws: Workspace, version: string, extra: object = {}) {
  const r = await release(ctx, ws, { version, ...extra });
  await settle(ctx);
  return r as { id: string; sha256: string };
}

const drain = () => drainIngest(ctx.deps);

async function stats(ws: Workspace, moduleId: string) {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/v1/modules/${moduleId}`,
    headers: ws.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().stats as { downloads: number; activations: number; errors: number; failure_rate: number };
}

describe('CodePush reports', () => {
  it('count downloads, activations and errors of the labelled release, once per device, release and kind', async () => {
    const ws = await workspaceWithApp(ctx);
    await setPlan(ctx, ws.workspaceId, 'pro');
    const key = await createKey(ctx, ws.headers, ws.appId);
    const v1 = await pushed(ws, 'v1');
    const v2 = await pushed(ws, 'v2');
    const devices = Array.from({ length: 6 }, (_, i) => new Device(url, key, `cp-device-${i}`, '1.2.0'));
    for (const device of devices) {
      const pkg = (await device.check({ label: 'v1', packageHash: v1.sha256 })) as RemotePackage;
      expect(pkg.label).toBe('v2');
      // Reported twice, as a client retrying after a lost answer would: counted once.
      await device.reportDownload(pkg);
      await device.reportDownload(pkg);
    }
    // Four devices start v2; two roll back to v1 (the client reports the failed package).
    for (const device of devices.slice(0, 4)) {
      const pkg = { label: 'v2', appVersion: '1.2.0' } as Package;
      await device.reportDeploy(pkg, AcquisitionStatus.DeploymentSucceeded, 'v1');
      await device.reportDeploy(pkg, AcquisitionStatus.DeploymentSucceeded, 'v1');
    }
    for (const device of devices.slice(4)) {
      await device.reportDeploy(
        { label: 'v2', appVersion: '1.2.0' } as Package,
        AcquisitionStatus.DeploymentFailed,
      );
    }
    // A report about the binary itself (no label) and one naming a label that is no release count nothing.
    await devices[0]!.reportDeploy(undefined, undefined, '1.1.0');
    await devices[0]!.reportDeploy(
      { label: 'v99', appVersion: '1.2.0' } as Package,
      AcquisitionStatus.DeploymentSucceeded,
    );
    await drain();
    // Six checks (recorded by the update check), six downloads, four activations, two errors.
    expect(await storedEvents(ctx.deps, ws.appId)).toBe(6 + 6 + 4 + 2);
    expect(await stats(ws, v2.id)).toMatchObject({ downloads: 6, activations: 4, errors: 2 });
    expect(await stats(ws, v1.id)).toMatchObject({ downloads: 0, activations: 0, errors: 0 });
  }, 60_000);

  it('name the release by label even after it was rolled back', async () => {
    const ws = await workspaceWithApp(ctx);
    const key = await createKey(ctx, ws.headers, ws.appId);
    await pushed(ws, 'good');
    const bad = await pushed(ws, 'bad');
    expect((await rollback(ctx, ws.headers, bad.id)).statusCode).toBe(200);
    await settle(ctx);
    const device = new Device(url, key, 'late-reporter');
    await device.reportDeploy(
      { label: 'bad', appVersion: '1.0.0' } as Package,
      AcquisitionStatus.DeploymentFailed,
    );
    await drain();
    expect(await stats(ws, bad.id)).toMatchObject({ errors: 1 });
  }, 60_000);

  it('feed the error-spike evaluation of the production release (failed deploys are errors)', async () => {
    const ws = await workspaceWithApp(ctx);
    const key = await createKey(ctx, ws.headers, ws.appId);
    const alerts = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/apps/${ws.appId}/alerts`,
      headers: ws.headers,
      // Every device of this test reports from one machine: one network, as inside one company.
      payload: { threshold: 0.3, min_sample: 6, min_networks: 1 },
    });
    expect(alerts.statusCode, alerts.body).toBe(200);
    await pushed(ws, 'v1');
    const pkg = { label: 'v1', appVersion: '1.0.0' } as Package;
    for (let i = 0; i < 6; i++) {
      const status = i < 3 ? AcquisitionStatus.DeploymentSucceeded : AcquisitionStatus.DeploymentFailed;
      await new Device(url, key, `spike-device-${i}`).reportDeploy(pkg, status);
    }
    await drain();
    const evaluator = new SpikeEvaluator(ctx.deps.db, ctx.deps.redis, ctx.deps.keys, ctx.deps.log, undefined);
    const result = await evaluator.evaluate(ws.appId);
    expect(result).toMatchObject({ fired: true, errorRate: 0.5, sample: 6 });
    const { rows } = await ctx.deps.db.query(
      "SELECT data FROM webhook_outbox WHERE event = 'error_spike' AND data->>'app_id' = $1",
      [ws.appId],
    );
    expect(rows.map((r) => r.data)).toEqual([
      expect.objectContaining({
        version: 'v1',
        errors: 3,
        activations: 3,
        sample: 6,
        error_rate: 0.5,
        networks: 1,
      }),
    ]);
  }, 60_000);

  it('use one event id per device, release and kind', () => {
    const a = reportEventId('download', 'm1', 'd1');
    expect(a).toMatch(/^cp\.download\.[0-9a-f]{40}$/);
    expect(reportEventId('download', 'm1', 'd1')).toBe(a);
    expect(reportEventId('activation', 'm1', 'd1')).not.toBe(a);
    expect(reportEventId('download', 'm2', 'd1')).not.toBe(a);
    expect(reportEventId('download', 'm1', 'd2')).not.toBe(a);
  });
});
