import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { QUEUES } from '../../../src/platform/queues.js';
import { waitFor } from '../../helpers/wait.js';
import { eventually, waitBacklogDrained, waitDeliveredOnceEach } from '../support/checks.js';
import { telemetry } from '../support/fleet-traffic.js';
import { call, expectStatus, pushRelease } from '../support/http.js';
import { systemWorld } from '../support/world.js';

/**
 * Two API processes and two worker processes (every role) on the same Postgres, Redis and ClickHouse, as
 * behind a load balancer: requests alternate between the APIs. Caps, caches, deliveries, ingest and
 * spike alerts must come out as they do with one of each.
 */
// A routing-cache backstop of ten minutes: anything an API sees sooner came through invalidation. Behind
// a balancer, as in production: devices on different networks are named by X-Forwarded-For.
const sys = systemWorld({
  env: () => ({ ROUTING_CACHE_TTL_MS: '600000', TRUST_PROXY: 'loopback' }),
  apis: 2,
  workers: ['ingest,webhooks,spikes,upkeep', 'ingest,webhooks,spikes,upkeep'],
});

const check = (base: string, appId: string, deviceId: string) =>
  call(base, 'POST', '/updates/check', { body: { app_id: appId, device_id: deviceId } });

/**
 * The module a device is offered through one API, polled until it is `wanted`: the change reaches the other
 * API through invalidation (the TTL backstop is ten minutes). Past the deadline, the last answer.
 */
async function offered(base: string, appId: string, deviceId: string, wanted: string | null) {
  let got: string | null = null;
  await waitFor('the offer to change', async () => {
    got = expectStatus(await check(base, appId, deviceId), 200).update?.module_id ?? null;
    return got === wanted;
  }).catch(() => {});
  return got;
}

describe('two APIs and two workers on shared services', () => {
  it('counts a hobby workspace’s devices exactly once across both APIs: the 100th is served, the 101st is not', async () => {
    const { world } = sys;
    const [a, b] = sys.apis as [string, string];
    const { owner, appId, sha256 } = await world.tenant(a);
    const release = await pushRelease(a, owner, { appId, sha256 }, '1.0.0');
    const devices = Array.from({ length: 150 }, (_, i) => `cap-device-${i}`);
    // All at once, half through each API: both race for the last places of the cap.
    const first = await Promise.all(devices.map((d, i) => check(i % 2 ? a : b, appId, d)));
    const served = devices.filter((_, i) => expectStatus(first[i]!, 200).update?.module_id === release.id);
    expect(served).toHaveLength(100);
    // Through the other API: the counted devices are still served, the others still refused.
    const again = await Promise.all(devices.map((d, i) => check(i % 2 ? b : a, appId, d)));
    const servedAgain = devices.filter((_, i) => expectStatus(again[i]!, 200).update !== null);
    expect(servedAgain).toEqual(served);
    const usage = expectStatus(
      await call(b, 'GET', `/workspaces/${owner.workspaceId}/usage`, { headers: owner.headers }),
      200,
    );
    expect(usage).toMatchObject({ distinct_devices: 100, device_cap: 100 });
  });

  it('serves a change made through one API from the other at once: push, rollout, rollback', async () => {
    const { world } = sys;
    const [a, b] = sys.apis as [string, string];
    const { owner, appId, sha256 } = await world.tenant(a);
    expectStatus(
      await call(a, 'PUT', `/workspaces/${owner.workspaceId}/plan`, {
        headers: owner.headers,
        body: { plan: 'pro' },
      }),
      200,
    );
    const v1 = await pushRelease(a, owner, { appId, sha256 }, '1.0.0');
    // Both APIs have the app's routing cached before the changes.
    expect(await offered(a, appId, 'cache-device', v1.id)).toBe(v1.id);
    expect(await offered(b, appId, 'cache-device', v1.id)).toBe(v1.id);

    const v2 = await pushRelease(a, owner, { appId, sha256 }, '2.0.0');
    expect(await offered(b, appId, 'cache-device', v2.id)).toBe(v2.id);

    const rollout = async (base: string, pct: number) =>
      expectStatus(
        await call(base, 'PATCH', `/modules/${v2.id}/rollout`, {
          headers: owner.headers,
          body: { rollout_pct: pct },
        }),
        200,
      );
    await rollout(b, 0);
    expect(await offered(a, appId, 'cache-device', v1.id)).toBe(v1.id);
    await rollout(b, 100);
    expect(await offered(a, appId, 'cache-device', v2.id)).toBe(v2.id);
    expectStatus(await call(a, 'POST', `/modules/${v2.id}/rollback`, { headers: owner.headers }), 200);
    expect(await offered(b, appId, 'cache-device', v1.id)).toBe(v1.id);
  });

  it('delivers every event made through either API exactly once, with both workers dispatching', async () => {
    const { world } = sys;
    const [a, b] = sys.apis as [string, string];
    const { owner, appId, sha256 } = await world.tenant(a);
    const hook = await world.hook(owner, '/both', ['release.pushed', 'rollback'], b);
    const releases = await Promise.all(
      Array.from({ length: 20 }, (_, i) => pushRelease(i % 2 ? a : b, owner, { appId, sha256 }, `3.0.${i}`)),
    );
    const newest = releases.reduce((x, y) => (x.created_at >= y.created_at ? x : y));
    expectStatus(await call(b, 'POST', `/modules/${newest.id}/rollback`, { headers: owner.headers }), 200);
    const report = await waitDeliveredOnceEach(world.ctx.deps, world.receiver, hook, 21);
    expect(report.unverified).toBe(0);
  });

  it('stores every event sent to either API once, read by both ingest workers', async () => {
    const { world } = sys;
    const [a, b] = sys.apis as [string, string];
    const { owner, appId, sha256 } = await world.tenant(a);
    const release = await pushRelease(a, owner, { appId, sha256 }, '4.0.0');
    let turn = 0;
    const events = telemetry(() => (turn++ % 2 ? a : b), appId, release.id, 4);
    // Batches alternate between the APIs: a few dozen of them went through each.
    await eventually('events taken through both APIs', async () =>
      events.state.accepted >= 5000 ? true : undefined,
    );
    await events.traffic.stop();
    expect(events.traffic.unexpected).toEqual([]);
    await world.expectEachEventOnce(owner, { appId, moduleId: release.id }, events.state.accepted, b);
  });

  it('sends one error_spike for one crossing, though both spike workers evaluate the app', async () => {
    const { world } = sys;
    const [a, b] = sys.apis as [string, string];
    const { owner, appId, sha256 } = await world.tenant(a);
    const release = await pushRelease(a, owner, { appId, sha256 }, '5.0.0');
    expectStatus(
      await call(a, 'PUT', `/apps/${appId}/alerts`, {
        headers: owner.headers,
        body: { threshold: 0.2, min_sample: 40, window_minutes: 15 },
      }),
      200,
    );
    const _hook = await world.hook(owner, '/spike', ['error_spike'], a);
    // Batches through both APIs, errors well past the threshold in each: every batch lands a job. Alerts
    // count devices and their networks, so each batch comes from devices of its own on a network of its own.
    for (let i = 0; i < 10; i++) {
      const events = Array.from({ length: 10 }, (_, k) => ({
        id: `spike-${i}-${k}`,
        device_id: `spike-device-${i}-${k}`,
        module_id: release.id,
        type: k < 5 ? 'activation' : 'error',
      }));
      expectStatus(
        await call(i % 2 ? a : b, 'POST', '/devices/events', {
          body: { app_id: appId, events },
          headers: { 'x-forwarded-for': `198.18.${i}.7` },
        }),
        202,
      );
    }
    await eventually('the alert', async () => (world.receiver.at('/spike').length > 0 ? true : undefined));
    // Every batch acknowledged (each enqueued its evaluation job), then every evaluation job run by one of
    // the two spike workers: the crossing was decided once, in the outbox, and delivered once.
    await waitBacklogDrained(world.ctx.deps);
    const spikeJobs = new Queue(QUEUES.spikes, {
      connection: world.ctx.deps.redis,
      prefix: world.ctx.deps.keys.queuePrefix,
    });
    try {
      await eventually('every spike evaluation run', async () => {
        const counts = await spikeJobs.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
        return Object.values(counts).every((n) => n === 0) ? true : undefined;
      });
    } finally {
      await spikeJobs.close();
    }
    const { rows } = await world.ctx.deps.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_outbox WHERE event = 'error_spike' AND data->>'app_id' = $1`,
      [appId],
    );
    expect(rows[0]?.n).toBe(1);
    const alerts = world.receiver.at('/spike');
    expect(alerts).toHaveLength(1);
    const body = JSON.parse(alerts[0]!.raw.toString());
    // It fired at the first evaluation past the minimum sample; every batch is half errors.
    expect(body).toMatchObject({
      event: 'error_spike',
      data: { app_id: appId, error_rate: 0.5, threshold: 0.2 },
    });
    expect(body.data.errors).toBe(body.data.activations);
    expect(body.data.sample).toBeGreaterThanOrEqual(40);
  });
});
