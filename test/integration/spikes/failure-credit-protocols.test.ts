import type { Package, RemotePackage } from 'code-push/script/acquisition-sdk.js';
import { describe, expect, it } from 'vitest';
import { fileContext } from '../../helpers/context.js';
import { AcquisitionStatus, createKey, Device } from '../codepush/harness.js';
import { expoHeaders, expoWorld, getManifest, pushExport } from '../expo/expo-world.js';
import { release, setPlan, type Workspace, workspaceWithApp } from '../releases/fixtures.js';
import { drainIngest } from '../telemetry/fixtures.js';
import { offered, settle } from '../updates/seed.js';

/**
 * Which release each protocol's failure reports count against (docs/reference/telemetry.md, "Which release
 * a failure counts against"). Only Capacitor's download-side failures are credited by what the service
 * offered (test/integration/capacitor/failure-credit.test.ts); the reports of the other protocols are launch
 * failures of the release they name, whatever the device was last offered, and stay with it.
 */
const ctx = fileContext({ listen: true });
const drain = () => drainIngest(ctx.deps);

async function errorsOf(headers: Record<string, string>, moduleId: string): Promise<number> {
  const res = await ctx.app.inject({ method: 'GET', url: `/api/v1/modules/${moduleId}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().stats.errors;
}

async function pushed(ws: Workspace, version: string) {
  const r = (await release(ctx, ws, { version })) as { id: string; sha256: string };
  await settle(ctx);
  return r;
}

describe('failure reports of the other protocols count against the release they name', () => {
  it("the SDK's POST /devices/events: an error of the module the app names, after a check that offered nothing", async () => {
    const ws = await workspaceWithApp(ctx);
    const v1 = await pushed(ws, 'v1');
    const v2 = await pushed(ws, 'v2');
    // The device runs v2: its check offers nothing. Its crash on v2 is v2's error (reportError(moduleId)).
    expect(await offered(ctx, { app_id: ws.appId, device_id: 'sdk-1', current_module_id: v2.id })).toBeNull();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/devices/events',
      payload: {
        app_id: ws.appId,
        events: [{ id: 'e1', device_id: 'sdk-1', module_id: v2.id, type: 'error' }],
      },
    });
    expect(res.statusCode, res.body).toBe(202);
    await drain();
    expect(await errorsOf(ws.headers, v2.id)).toBe(1);
    expect(await errorsOf(ws.headers, v1.id)).toBe(0);
  });

  it("CodePush's DeploymentFailed: the package that was installed and rolled back, not the one the device runs", async () => {
    const ws = await workspaceWithApp(ctx);
    await setPlan(ctx, ws.workspaceId, 'pro');
    const key = await createKey(ctx, ws.headers, ws.appId);
    const v1 = await pushed(ws, 'v1');
    const v2 = await pushed(ws, 'v2');
    const device = new Device(ctx.url!, key, 'cp-credit-1', '1.0.0');
    const pkg = (await device.check({ label: 'v1', packageHash: v1.sha256 })) as RemotePackage;
    expect(pkg.label).toBe('v2');
    await device.reportDownload(pkg);
    // v2 crashed on start; the client went back to v1 and reports v2 as failed, with v1 as the previous label.
    await device.reportDeploy(
      { label: 'v2', appVersion: '1.0.0' } as Package,
      AcquisitionStatus.DeploymentFailed,
      'v1',
    );
    await drain();
    expect(await errorsOf(ws.headers, v2.id)).toBe(1);
    expect(await errorsOf(ws.headers, v1.id)).toBe(0);
  });

  it("Expo's expo-recent-failed-update-ids: the updates that failed to launch, not the one the device runs", async () => {
    const world = await expoWorld(ctx, 'team');
    const running = await pushExport(world, { version: '1.0.0' });
    const failed = await pushExport(world, { version: '1.1.0', rollout: 0 });
    // The device runs 1.0.0 (offered nothing now) and remembers that 1.1.0 failed to launch.
    const res = await getManifest(
      ctx,
      world.appId,
      expoHeaders('ios', {
        'eas-client-id': 'expo-credit-1',
        'expo-current-update-id': running.id,
        'expo-recent-failed-update-ids': `"${failed.id}"`,
      }),
    );
    expect(res.status).toBeLessThan(300);
    const auth = { 'x-api-key': world.apiKey };
    let errors = 0;
    for (let i = 0; i < 100 && errors === 0; i++) {
      await drain();
      errors = await errorsOf(auth, failed.id);
    }
    expect(errors).toBe(1);
    expect(await errorsOf(auth, running.id)).toBe(0);
  });
});
