import { describe, expect, it } from 'vitest';
import { capabilitiesOf } from '../../../src/plans/plans.js';
import { fileContext } from '../../helpers/context.js';
import { Tenant } from '../abuse/tenant.js';

/**
 * The shipped defaults keep the specification: a capped workspace under its cap counts and serves every
 * new device, however many share one address (an office's Wi-Fi, a carrier-grade NAT, a CI farm). Only
 * the cap refuses, and a refused device is told why.
 */
const HOBBY_CAP = capabilitiesOf('hobby').deviceCap!;
const ONE_ADDRESS = '203.0.113.50';

const ctx = fileContext();

async function check(appId: string, deviceId: string, remoteAddress = ONE_ADDRESS) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/updates/check',
    payload: { app_id: appId, device_id: deviceId },
    remoteAddress,
  });
  expect(res.statusCode).toBe(200);
  return res.json() as { update: { module_id: string } | null; reason?: string };
}

describe('new devices on the shipped defaults', () => {
  it('serves the 11th, and the 100th, new device of a hobby workspace from one address; the 101st is refused by the cap', async () => {
    const t = await Tenant.create(ctx, 'hobby');
    const { id: appId } = await t.app();
    const release = await t.release();
    for (let i = 0; i < HOBBY_CAP; i++) {
      const answer = await check(appId, `office-${i}`);
      expect(answer.update?.module_id, `device ${i + 1}`).toBe(release.id);
    }
    expect(await check(appId, 'office-101st')).toEqual({ update: null, reason: 'device_cap' });
    // From another address too, and a device already counted is always served.
    expect(await check(appId, 'elsewhere', '198.51.100.77')).toEqual({ update: null, reason: 'device_cap' });
    expect((await check(appId, 'office-0')).update?.module_id).toBe(release.id);
  });

  it('shows the owner the devices the cap refused in the last 24 hours, each once', async () => {
    const t = await Tenant.create(ctx, 'hobby');
    const { id: appId } = await t.app();
    await t.release();
    for (let i = 0; i < HOBBY_CAP; i++) await check(appId, `full-${i}`, `10.1.${i >> 8}.${i & 0xff}`);
    for (const device of ['late-1', 'late-2', 'late-1', 'late-3', 'late-2']) await check(appId, device);
    const usage = (await t.call('GET', `/workspaces/${t.workspaceId}/usage`)).json();
    expect(usage).toMatchObject({
      distinct_devices: HOBBY_CAP,
      device_cap: HOBBY_CAP,
      refused_devices: { device_cap: 3, new_device_limit: 0 },
    });
  });

  it('says nothing of a reason to a device that is merely up to date', async () => {
    const t = await Tenant.create(ctx, 'hobby');
    const { id: appId } = await t.app();
    const release = await t.release();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/updates/check',
      payload: { app_id: appId, device_id: 'current', current_module_id: release.id },
    });
    expect(res.json()).toEqual({ update: null });
  });
});
