import { describe, expect, it } from 'vitest';
import { DeviceCapGate } from '../../../src/devices/device-cap.js';
import { capabilitiesOf } from '../../../src/plans/plans.js';
import { fileContext } from '../../helpers/context.js';
import { Tenant } from '../abuse/tenant.js';

/**
 * A stranger holds the app id (it ships in every copy of the app) and can invent device ids. An operator
 * who opts in limits devices new to a capped workspace per client address per hour, so one address cannot
 * fill the cap (off by default: carrier-grade NAT puts thousands of real phones behind one address; see
 * test/integration/devices/defaults.test.ts). This file runs with the opt-in.
 */
const DEFAULT_NEW_DEVICES_PER_ADDRESS = 10;
const HOBBY_CAP = capabilitiesOf('hobby').deviceCap!;

const ctx = fileContext({
  env: { RATE_LIMIT_NEW_DEVICES_PER_ADDRESS_PER_HOUR: String(DEFAULT_NEW_DEVICES_PER_ADDRESS) },
});

async function hobbyApp() {
  const t = await Tenant.create(ctx, 'hobby');
  const { id: appId } = await t.app();
  const release = await t.release();
  return { t, appId, releaseId: release.id };
}

async function check(appId: string, deviceId: string, remoteAddress: string): Promise<string | null> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/updates/check',
    payload: { app_id: appId, device_id: deviceId },
    remoteAddress,
  });
  if (res.statusCode !== 200) throw new Error(`check: ${res.statusCode} ${res.body}`);
  return (res.json() as { update: { module_id: string } | null }).update?.module_id ?? null;
}

describe('made-up device ids from one address', () => {
  it('cannot fill a hobby workspace: real new devices from other addresses are still served', async () => {
    const { t, appId, releaseId } = await hobbyApp();
    let served = 0;
    for (let i = 0; i < HOBBY_CAP; i++) {
      if ((await check(appId, `invented-${i}`, '203.0.113.7')) !== null) served += 1;
    }
    expect(served).toBe(DEFAULT_NEW_DEVICES_PER_ADDRESS);
    expect(await check(appId, 'real-phone', '198.51.100.20')).toBe(releaseId);
    const usage = await t.call('GET', `/workspaces/${t.workspaceId}/usage`);
    expect(usage.json().distinct_devices).toBe(DEFAULT_NEW_DEVICES_PER_ADDRESS + 1);
    // The owner sees how many distinct devices the limit turned away (a HyperLogLog estimate).
    const refused = usage.json().refused_devices;
    expect(refused.device_cap).toBe(0);
    const turnedAway = HOBBY_CAP - DEFAULT_NEW_DEVICES_PER_ADDRESS;
    expect(Math.abs(refused.new_device_limit - turnedAway)).toBeLessThanOrEqual(turnedAway * 0.1);
  });

  it('tells a refused device why: reason new_device_limit', async () => {
    const { appId } = await hobbyApp();
    for (let i = 0; i < DEFAULT_NEW_DEVICES_PER_ADDRESS; i++) await check(appId, `r-${i}`, '203.0.113.12');
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/updates/check',
      payload: { app_id: appId, device_id: 'r-over' },
      remoteAddress: '203.0.113.12',
    });
    expect(res.json()).toEqual({ update: null, reason: 'new_device_limit' });
  });

  it('keeps serving the devices an address already added, past its limit', async () => {
    const { appId, releaseId } = await hobbyApp();
    for (let i = 0; i < DEFAULT_NEW_DEVICES_PER_ADDRESS + 5; i++) await check(appId, `d-${i}`, '203.0.113.8');
    for (let i = 0; i < DEFAULT_NEW_DEVICES_PER_ADDRESS; i++) {
      expect(await check(appId, `d-${i}`, '203.0.113.8')).toBe(releaseId);
    }
    expect(await check(appId, `d-${DEFAULT_NEW_DEVICES_PER_ADDRESS}`, '203.0.113.8')).toBeNull();
    // Moving to another address (the phone left the Wi-Fi) gets it counted there.
    expect(await check(appId, `d-${DEFAULT_NEW_DEVICES_PER_ADDRESS}`, '192.0.2.44')).toBe(releaseId);
  });

  it('keeps the cap exact at the boundary for devices from many addresses', async () => {
    const { appId, releaseId } = await hobbyApp();
    for (let i = 0; i < HOBBY_CAP; i++) {
      expect(await check(appId, `fleet-${i}`, `10.20.${Math.floor(i / 200)}.${i % 200}`)).toBe(releaseId);
    }
    expect(await check(appId, 'fleet-101st', '10.30.0.1')).toBeNull();
    expect(await check(appId, 'fleet-0', '10.30.0.1')).toBe(releaseId);
  });

  it('counts an IPv6 client by its /64, so one host cannot rotate through its addresses', async () => {
    const { appId, releaseId } = await hobbyApp();
    let served = 0;
    for (let i = 0; i < 2 * DEFAULT_NEW_DEVICES_PER_ADDRESS; i++) {
      const address = `2001:db8:aa:bb:${i.toString(16)}::1`;
      if ((await check(appId, `v6-${i}`, address)) !== null) served += 1;
    }
    expect(served).toBe(DEFAULT_NEW_DEVICES_PER_ADDRESS);
    // An IPv4 client seen as an IPv4-mapped IPv6 address is the same client as its IPv4 form.
    for (let i = 0; i < DEFAULT_NEW_DEVICES_PER_ADDRESS; i++) await check(appId, `v4-${i}`, '198.51.100.9');
    expect(await check(appId, 'v4-mapped', '::ffff:198.51.100.9')).toBeNull();
    expect(await check(appId, 'v6-other', '2001:db8:aa:cc::1')).toBe(releaseId);
  });

  it('limits an address per workspace: the same address still adds devices to another workspace', async () => {
    const first = await hobbyApp();
    const second = await hobbyApp();
    for (let i = 0; i < DEFAULT_NEW_DEVICES_PER_ADDRESS; i++)
      await check(first.appId, `w-${i}`, '203.0.113.9');
    expect(await check(first.appId, 'w-extra', '203.0.113.9')).toBeNull();
    expect(await check(second.appId, 'w-extra', '203.0.113.9')).toBe(second.releaseId);
  });

  it('does not limit a workspace without a device cap', async () => {
    const t = await Tenant.create(ctx, 'team');
    const { id: appId } = await t.app();
    const release = await t.release();
    for (let i = 0; i < 3 * DEFAULT_NEW_DEVICES_PER_ADDRESS; i++) {
      expect(await check(appId, `team-${i}`, '203.0.113.10')).toBe(release.id);
    }
  });

  it('costs an admitted device nothing: no Redis call, not even a look at its address', async () => {
    const gate = new DeviceCapGate(ctx.deps.redis, ctx.deps.keys, {
      windowDays: 30,
      newPerAddressPerHour: DEFAULT_NEW_DEVICES_PER_ADDRESS,
    });
    const workspace = '00000000-0000-4000-8000-00000000a11d';
    expect(await gate.admit(workspace, 'known', HOBBY_CAP, { ip: '198.51.100.1' })).toBe('admitted');
    const unreadable = {
      get ip(): string {
        throw new Error('the address of an admitted device was read');
      },
    };
    expect(gate.admit(workspace, 'known', HOBBY_CAP, unreadable)).toBe('admitted');
  });
});
