import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSpikesWorker, type SpikesWorker } from '../../../workers/spikes.worker.js';
import { fileContext } from '../../helpers/context.js';
import { Tenant } from '../abuse/tenant.js';
import { createKey } from '../codepush/harness.js';
import { expoHeaders, expoWorld, pushExport } from '../expo/expo-world.js';
import { drainIngest, storedEvents, waitFor } from '../telemetry/fixtures.js';

/**
 * A stranger holds the app id (it ships in every copy of the app) and reports failures of its production
 * release for device ids it invents, from one address, through every protocol: none of it may fire
 * `error_spike`, nor so roll the release back. Real failures from a fleet on many networks still do.
 * Every app here rolls back on a spike, on the default alert settings.
 */
const STRANGER = '203.0.113.66';
const INVENTED = 200;

let spikes: SpikesWorker;
const ctx = fileContext({ listen: true });
beforeAll(async () => {
  spikes = createSpikesWorker(ctx.deps);
});

/** An app with two releases on production, the newer one watched, rolling back on a spike. */
async function watchedApp(t: Tenant): Promise<{ appId: string; current: string }> {
  const { id: appId } = await t.app();
  await t.push('1.0.0');
  const current = (await t.push('1.1.0')).id;
  await rollBackOnSpike(t, appId);
  return { appId, current };
}

async function rollBackOnSpike(t: Tenant, appId: string): Promise<void> {
  const res = await t.call('PUT', `/apps/${appId}/alerts`, { action: 'rollback' });
  expect(res.statusCode, res.body).toBe(200);
}

/** Stores what the intake took (ingest updates the failure counters as it acknowledges). */
const drain = () => drainIngest(ctx.deps);

async function outcome(appId: string, releaseId: string) {
  const result = await spikes.evaluator.evaluate(appId);
  const { rows } = await ctx.deps.db.query('SELECT active FROM releases WHERE id = $1', [releaseId]);
  const alerts = await ctx.deps.db.query(
    "SELECT data FROM webhook_outbox WHERE event = 'error_spike' AND data->>'app_id' = $1",
    [appId],
  );
  return { result, active: rows[0].active as boolean, alerts: alerts.rows.map((r) => r.data) };
}

const invented = () => Array.from({ length: INVENTED }, () => `forged-${randomBytes(6).toString('hex')}`);

describe('failures reported for invented devices from one address', () => {
  it('through POST /devices/events: no alert, no rollback', async () => {
    const t = await Tenant.create(ctx, 'team');
    const { appId, current } = await watchedApp(t);
    const events = invented().map((device, i) => ({
      id: `forged-${i}`,
      device_id: device,
      module_id: current,
      type: 'error',
    }));
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/devices/events',
      payload: { app_id: appId, events },
      remoteAddress: STRANGER,
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().accepted).toBe(INVENTED);
    await drain();
    const { result, active, alerts } = await outcome(appId, current);
    expect(result).toMatchObject({ fired: false });
    // A handful of the 200 count, all from one network.
    expect(result!.sample).toBeLessThanOrEqual(10);
    expect(active).toBe(true);
    expect(alerts).toEqual([]);
  });

  it("through CodePush's report_status/deploy: no alert, no rollback", async () => {
    const t = await Tenant.create(ctx, 'team');
    const { appId, current } = await watchedApp(t);
    const key = await createKey(ctx, t.owner.headers, appId);
    for (const device of invented()) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/v0.1/public/codepush/report_status/deploy',
        payload: {
          deployment_key: key,
          app_version: '1.0.0',
          client_unique_id: device,
          label: '1.1.0',
          status: 'DeploymentFailed',
        },
        remoteAddress: STRANGER,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    await drain();
    const { result, active, alerts } = await outcome(appId, current);
    expect(result).toMatchObject({ fired: false });
    expect(active).toBe(true);
    expect(alerts).toEqual([]);
  });

  it("through Expo's expo-recent-failed-update-ids: no alert, no rollback", async () => {
    const world = await expoWorld(ctx, 'team');
    await pushExport(world, { version: '1.0.0' });
    const current = (await pushExport(world, { version: '1.1.0' })).id;
    await world.client.apps.setAlerts(world.appId, { action: 'rollback' });
    for (const device of invented()) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/expo/${world.appId}/manifest`,
        headers: expoHeaders('ios', {
          'eas-client-id': device,
          'expo-recent-failed-update-ids': `"${current}"`,
        }),
        remoteAddress: STRANGER,
      });
      expect(res.statusCode).toBeLessThan(300);
    }
    // The reports are handed to the intake after each answer: all 200 are stored (with the 200 checks).
    await waitFor('every failure report stored', async () => {
      await drain();
      return (await storedEvents(ctx.deps, world.appId)) >= 2 * INVENTED;
    });
    const { result, active, alerts } = await outcome(world.appId, current);
    expect(result).toMatchObject({ fired: false });
    expect(active).toBe(true);
    expect(alerts).toEqual([]);
  });
});

describe('real failures of a fleet on many networks', () => {
  it('fire the alert and roll the release back: 20 addresses of 20 devices each', async () => {
    const t = await Tenant.create(ctx, 'team');
    const { appId, current } = await watchedApp(t);
    for (let a = 0; a < 20; a++) {
      const events = Array.from({ length: 20 }, (_, d) => ({
        id: `real-${a}-${d}`,
        device_id: `phone-${a}-${d}`,
        module_id: current,
        // Half of each network's phones fail to start the release.
        type: d % 2 === 0 ? 'error' : 'activation',
      }));
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/devices/events',
        payload: { app_id: appId, events },
        remoteAddress: `198.18.${a}.${10 + a}`,
      });
      expect(res.statusCode, res.body).toBe(202);
    }
    await drain();
    const { result, active, alerts } = await outcome(appId, current);
    expect(result).toMatchObject({ fired: true });
    expect(active).toBe(false);
    expect(alerts).toEqual([expect.objectContaining({ networks: 20, error_rate: 0.5 })]);
  });
});
