import { describe, expect, it } from 'vitest';
import { DeviceCapGate } from '../../../src/devices/device-cap.js';
import { capabilitiesOf } from '../../../src/plans/plans.js';
import { invalidationChannel } from '../../../src/platform/invalidation.js';
import { createLogger } from '../../../src/platform/logger.js';
import { createRedis } from '../../../src/platform/redis.js';
import { RoutingCache } from '../../../src/routing/routing.cache.js';
import { RoutingInvalidationListener } from '../../../src/routing/routing.listener.js';
import { expectProblem, fileContext } from '../../helpers/context.js';
import { eventually } from '../../helpers/devices.js';
import { Tenant } from '../abuse/tenant.js';

/** The owner sees the devices counted against the cap and can release one (GET/DELETE …/devices). */
const HOBBY_CAP = capabilitiesOf('hobby').deviceCap!;
const CLIENT = { ip: '10.0.0.1' };

const ctx = fileContext();

interface Listed {
  devices: Array<{ device_id: string; last_seen_at: string }>;
  total: number;
  limit: number;
  offset: number;
  next_offset: number | null;
  device_cap: number | null;
  window_days: number;
}

async function hobbyApp() {
  const t = await Tenant.create(ctx, 'hobby');
  const { id: appId } = await t.app();
  const release = await t.release();
  return { t, appId, releaseId: release.id };
}

async function check(appId: string, deviceId: string): Promise<string | null> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/updates/check',
    payload: { app_id: appId, device_id: deviceId },
  });
  if (res.statusCode !== 200) throw new Error(`check: ${res.statusCode} ${res.body}`);
  return (res.json() as { update: { module_id: string } | null }).update?.module_id ?? null;
}

const devicesUrl = (t: Tenant, query = '') => `/workspaces/${t.workspaceId}/devices${query}`;

describe('GET /workspaces/{id}/devices', () => {
  it('lists the counted devices, most recently seen first, a page at a time', async () => {
    const { t, appId } = await hobbyApp();
    for (let i = 0; i < 5; i++) await check(appId, `phone-${i}`);
    const first = await t.call('GET', devicesUrl(t, '?limit=2'));
    expect(first.statusCode, first.body).toBe(200);
    const page = first.json() as Listed;
    expect(page.devices.map((d) => d.device_id)).toEqual(['phone-4', 'phone-3']);
    expect(page).toMatchObject({ total: 5, limit: 2, offset: 0, next_offset: 2, device_cap: HOBBY_CAP });
    expect(page.window_days).toBe(ctx.config.devices.windowDays);
    expect(Date.parse(page.devices[0]!.last_seen_at)).toBeGreaterThan(Date.now() - 60_000);
    const last = (await t.call('GET', devicesUrl(t, '?limit=2&offset=4'))).json() as Listed;
    expect(last.devices.map((d) => d.device_id)).toEqual(['phone-0']);
    expect(last.next_offset).toBeNull();
    const past = (await t.call('GET', devicesUrl(t, '?offset=50'))).json() as Listed;
    expect(past.devices).toEqual([]);
  });

  it('refuses limits outside 1-200 and negative offsets', async () => {
    const { t } = await hobbyApp();
    for (const query of ['?limit=0', '?limit=201', '?offset=-1', '?limit=x']) {
      expectProblem(await t.call('GET', devicesUrl(t, query)), 400, 'invalid_request');
    }
  });

  it('is empty on a plan without a device cap', async () => {
    const t = await Tenant.create(ctx, 'team');
    const { id: appId } = await t.app();
    await check(appId, 'team-phone');
    const res = await t.call('GET', devicesUrl(t));
    expect(res.json()).toMatchObject({ devices: [], total: 0, device_cap: null });
  });

  it('is for owners and admins of the workspace', async () => {
    const { t } = await hobbyApp();
    const other = await hobbyApp();
    await t.setPlan('team');
    expect((await t.call('GET', devicesUrl(t), undefined, t.callers.admin)).statusCode).toBe(200);
    expect((await t.call('GET', devicesUrl(t), undefined, t.callers['admin key'])).statusCode).toBe(200);
    expectProblem(await t.call('GET', devicesUrl(t), undefined, t.callers.developer), 403);
    expectProblem(await t.call('GET', devicesUrl(other.t)), 403, 'wrong_workspace');
  });
});

describe('DELETE /workspaces/{id}/devices/{device_id}', () => {
  it("frees the device's place at once, and a new device takes it", async () => {
    const { t, appId, releaseId } = await hobbyApp();
    for (let i = 0; i < HOBBY_CAP; i++) await check(appId, `cap-${i}`);
    expect(await check(appId, 'newcomer')).toBeNull();

    const res = await t.call('DELETE', `${devicesUrl(t)}/cap-7`);
    expect(res.statusCode, res.body).toBe(204);
    const listed = (await t.call('GET', devicesUrl(t, '?limit=200'))).json() as Listed;
    expect(listed.total).toBe(HOBBY_CAP - 1);
    expect(listed.devices.map((d) => d.device_id)).not.toContain('cap-7');

    expect(await check(appId, 'newcomer')).toBe(releaseId);
    // The released device is not counted any more, here or in any API process: at the cap it waits.
    expect(await check(appId, 'cap-7')).toBeNull();
    expect(await check(appId, 'cap-8')).toBe(releaseId);
  });

  it('is audited as device.release with the device id, under the actor', async () => {
    const { t, appId } = await hobbyApp();
    await check(appId, 'to-release');
    expect(
      (await t.call('DELETE', `${devicesUrl(t)}/to-release`, undefined, t.callers['admin key'])).statusCode,
    ).toBe(204);
    await t.setPlan('team'); // the audit log is read on the team plan
    const res = await t.call('GET', '/audit?action=device.release');
    expect(res.statusCode, res.body).toBe(200);
    const [entry] = res.json().entries;
    expect(entry).toMatchObject({ actor: 'api-key', action: 'device.release', app_id: null });
    expect(entry.details).toMatchObject({ device_id: 'to-release' });
    expect(typeof entry.details.last_seen_at).toBe('string');
  });

  it('answers 404 for a device that is not counted, and writes nothing', async () => {
    const { t } = await hobbyApp();
    expectProblem(await t.call('DELETE', `${devicesUrl(t)}/never-seen`), 404, 'device_not_counted');
    const { rows } = await ctx.deps.db.query(
      `SELECT 1 FROM audit_log WHERE workspace_id = $1 AND action = 'device.release'`,
      [t.workspaceId],
    );
    expect(rows).toEqual([]);
  });

  it('refuses device ids outside the device id rule, and roles below admin', async () => {
    const { t, appId } = await hobbyApp();
    await check(appId, 'kept');
    for (const bad of ['a%20b', 'x'.repeat(129), '%C3%A9']) {
      expectProblem(await t.call('DELETE', `${devicesUrl(t)}/${bad}`), 400);
    }
    await t.setPlan('team');
    expectProblem(await t.call('DELETE', `${devicesUrl(t)}/kept`, undefined, t.callers.developer), 403);
    expectProblem(await t.call('DELETE', `${devicesUrl(t)}/kept`, undefined, t.callers['viewer key']), 403);
  });

  it('makes every other API process forget the released device: its next check goes to the shared set', async () => {
    const { t, appId } = await hobbyApp();
    await check(appId, 'roaming');
    // A second API process: its own memory of admitted devices and its own invalidation subscription.
    const gate = new DeviceCapGate(ctx.deps.redis, ctx.deps.keys, {
      windowDays: ctx.config.devices.windowDays,
    });
    const connection = createRedis(ctx.config.redis);
    const listener = new RoutingInvalidationListener(
      () => connection,
      invalidationChannel(ctx.deps.keys),
      new RoutingCache({ load: async () => null }, { ttlMs: 1000 }),
      createLogger('silent', 'test'),
      (workspaceId, deviceId) => gate.forget(workspaceId, deviceId),
    );
    await listener.start();
    try {
      expect(await gate.admit(t.workspaceId, 'roaming', HOBBY_CAP, CLIENT)).toBe('admitted');
      expect(gate.admit(t.workspaceId, 'roaming', HOBBY_CAP, CLIENT)).toBe('admitted'); // from memory
      expect((await t.call('DELETE', `${devicesUrl(t)}/roaming`)).statusCode).toBe(204);
      await eventually('the other process to forget the device', async () =>
        gate.admit(t.workspaceId, 'roaming', HOBBY_CAP, CLIENT) instanceof Promise ? true : undefined,
      );
    } finally {
      await listener.stop();
    }
  });
});
