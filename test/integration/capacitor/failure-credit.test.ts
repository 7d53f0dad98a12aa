import { beforeAll, describe, expect, it } from 'vitest';
import { createSpikesWorker, type SpikesWorker } from '../../../workers/spikes.worker.js';
import { CapacitorDevice } from '../../helpers/capacitor-device.js';
import { fileContext } from '../../helpers/context.js';
import type { Workspace } from '../releases/fixtures.js';
import { workspaceWithApp } from '../releases/fixtures.js';
import { drainIngest, storedEvents } from '../telemetry/fixtures.js';
import { capacitorRelease, check, control, send } from './harness.js';

/**
 * Download-side failures (`download_fail`, `checksum_fail`, `decrypt_fail`) are credited to the release the
 * service last offered the device, whatever version they name: plugin 8 names the bundle it runs after a
 * failed check and after a failed download (Android's `checksum_fail` too). After an answer that offered
 * nothing they are no release's error. Launch failures stay with the bundle the device runs.
 */
const ctx = fileContext();
let spikes: SpikesWorker;
beforeAll(() => {
  spikes = createSpikesWorker(ctx.deps);
});

const drain = () => drainIngest(ctx.deps);
/** Device n's own network. */
const network = (n: number) => `198.18.${n}.${10 + n}`;

async function releaseStats(ws: Workspace, moduleId: string) {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/v1/modules/${moduleId}`,
    headers: ws.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().stats as { downloads: number; activations: number; errors: number };
}

async function outcome(appId: string, releaseId: string) {
  const result = await spikes.evaluator.evaluate(appId);
  const { rows } = await ctx.deps.db.query('SELECT active FROM releases WHERE id = $1', [releaseId]);
  const alerts = await ctx.deps.db.query(
    "SELECT data FROM webhook_outbox WHERE event = 'error_spike' AND data->>'app_id' = $1",
    [appId],
  );
  return { result, active: rows[0].active as boolean, alerts: alerts.rows.map((r) => r.data) };
}

/** A production app with 1.0.0 and the newer 1.0.1, rolling back on a spike (default alert settings). */
async function watchedApp() {
  const ws = await workspaceWithApp(ctx);
  const old = await capacitorRelease(ctx, ws, '1.0.0');
  const newest = await capacitorRelease(ctx, ws, '1.0.1');
  await control(ctx, ws, 'PUT', `/apps/${ws.appId}/alerts`, { action: 'rollback' });
  return { ws, old, newest };
}

/** Sends what the device queued, from its own network. */
async function flushFrom(appId: string, device: CapacitorDevice, address: string) {
  const batch = device.flushStats();
  if (batch === undefined) return;
  const res = await send(ctx, appId, 'stats', batch, 'POST', address);
  expect(res.statusCode, res.body).toBe(200);
}

/** A device that was offered `version`, downloaded it and runs it; its statistics are sent. */
async function runningDevice(appId: string, n: number, version: string, platform: 'android' | 'ios') {
  const device = new CapacitorDevice({ deviceId: `fleet-${platform}-${n}-${crypto.randomUUID()}`, platform });
  const offered = await check(ctx, appId, device, network(n));
  expect(offered).toMatchObject({ kind: 'update', version });
  device.sendStats({ action: 'download_complete', versionName: version });
  device.activate(version);
  await flushFrom(appId, device, network(n));
  return device;
}

describe('download-side failures after an answer that offered nothing', () => {
  it('30 devices on 30 networks running the newest release: no alert, no rollback, no error counted', async () => {
    const { ws, newest } = await watchedApp();
    for (let n = 0; n < 30; n++) {
      const device = await runningDevice(ws.appId, n, newest.version, n % 2 === 0 ? 'android' : 'ios');
      // The next check offers nothing: the device runs the newest release.
      expect(await check(ctx, ws.appId, device, network(n))).toMatchObject({ kind: 'up_to_date' });
      // Then a check fails on the way (or a download of something else does): plugin 8 reports the bundle
      // it runs, `download_fail` after a failed check, Android's `checksum_fail` too.
      device.sendStats({ action: n % 3 === 0 ? 'checksum_fail' : 'download_fail' });
      device.sendStats({ action: 'download_fail' });
      await flushFrom(ws.appId, device, network(n));
    }
    await drain();
    const { result, active, alerts } = await outcome(ws.appId, newest.id);
    expect(result).toMatchObject({ fired: false });
    expect(active).toBe(true);
    expect(alerts).toEqual([]);
    expect(await releaseStats(ws, newest.id)).toMatchObject({ activations: 30, errors: 0 });
    // Every report is still stored: 30 downloads, 30 activations and one of each failure kind per device.
    expect(await storedEvents(ctx.deps, ws.appId)).toBeGreaterThanOrEqual(30 * 2 + 30 + 10);
  }, 120_000);
});

describe('download-side failures after an offer', () => {
  it('are credited to the offered release, not to the running one they name (Android and iOS)', async () => {
    const ws = await workspaceWithApp(ctx);
    const old = await capacitorRelease(ctx, ws, '1.0.0');
    const devices: CapacitorDevice[] = [];
    for (const [n, platform] of [
      [0, 'android'],
      [1, 'ios'],
    ] as const) {
      devices.push(await runningDevice(ws.appId, n, old.version, platform));
    }
    // Devices running 1.0.0 are offered 1.0.1; the bytes they get do not match its checksum.
    const newest = await capacitorRelease(ctx, ws, '1.0.1');
    for (const [n, device] of devices.entries()) {
      const offered = await check(ctx, ws.appId, device, network(n));
      expect(offered).toMatchObject({ kind: 'update', version: newest.version });
      expect(() =>
        device.install(offered as Extract<typeof offered, { kind: 'update' }>, Buffer.from('not the zip')),
      ).toThrow();
      await flushFrom(ws.appId, device, network(n));
    }
    await drain();
    expect(await releaseStats(ws, newest.id)).toMatchObject({ errors: 2 });
    expect(await releaseStats(ws, old.id)).toMatchObject({ activations: 2, errors: 0 });
  }, 60_000);

  it('launch failures stay with the release the device runs', async () => {
    const { ws, newest } = await watchedApp();
    const device = await runningDevice(ws.appId, 40, newest.version, 'android');
    expect(await check(ctx, ws.appId, device, network(40))).toMatchObject({ kind: 'up_to_date' });
    device.sendStats({ action: 'app_launch_timeout' });
    device.missAppReady();
    await flushFrom(ws.appId, device, network(40));
    await drain();
    expect(await releaseStats(ws, newest.id)).toMatchObject({ activations: 1, errors: 1 });
  }, 60_000);
});
