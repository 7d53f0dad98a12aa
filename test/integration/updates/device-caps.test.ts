import { describe, expect, it } from 'vitest';
import { DeviceCapGate } from '../../../src/devices/device-cap.js';
import { capabilitiesOf } from '../../../src/plans/plans.js';
import { AppError } from '../../../src/platform/errors.js';
import { createRedis } from '../../../src/platform/redis.js';
import { fileContext } from '../../helpers/context.js';
import { deviceIds, offered, seedApp, seedRelease, seedWorkspace, setPlan } from './seed.js';

const ctx = fileContext();

const HOBBY_CAP = capabilitiesOf('hobby').deviceCap!;
const DAY = 86_400_000;
// Gates made here have no per-address limit (the option is off unless given): one address will do.
const ADDRESS = { ip: '10.0.0.1' };

async function hobbyAppWithRelease() {
  const workspaceId = await seedWorkspace(ctx, 'hobby');
  const appId = await seedApp(ctx, workspaceId);
  const release = await seedRelease(ctx, appId);
  return { workspaceId, appId, release };
}

describe('device caps through the update check', () => {
  it('serves the 99th and 100th distinct devices of a hobby workspace and refuses the 101st', async () => {
    const { appId, release } = await hobbyAppWithRelease();
    const devices = deviceIds(HOBBY_CAP + 1, 'cap');
    for (const device of devices.slice(0, HOBBY_CAP - 2)) {
      expect(await offered(ctx, { app_id: appId, device_id: device })).toBe(release.id);
    }
    expect(await offered(ctx, { app_id: appId, device_id: devices[HOBBY_CAP - 2]! })).toBe(release.id); // 99th
    expect(await offered(ctx, { app_id: appId, device_id: devices[HOBBY_CAP - 1]! })).toBe(release.id); // 100th
    expect(await offered(ctx, { app_id: appId, device_id: devices[HOBBY_CAP]! })).toBeNull(); // 101st
    expect(await offered(ctx, { app_id: appId, device_id: 'yet-another' })).toBeNull();
    // Counted devices keep being served, including the first and the last admitted.
    expect(await offered(ctx, { app_id: appId, device_id: devices[0]! })).toBe(release.id);
    expect(await offered(ctx, { app_id: appId, device_id: devices[HOBBY_CAP - 1]! })).toBe(release.id);
  });

  it('counts devices per workspace, across all of its apps', async () => {
    const { workspaceId, appId, release } = await hobbyAppWithRelease();
    const second = await seedApp(ctx, workspaceId);
    const secondRelease = await seedRelease(ctx, second);
    for (const device of deviceIds(HOBBY_CAP / 2, 'a'))
      await offered(ctx, { app_id: appId, device_id: device });
    for (const device of deviceIds(HOBBY_CAP / 2, 'b')) {
      expect(await offered(ctx, { app_id: second, device_id: device })).toBe(secondRelease.id);
    }
    expect(await offered(ctx, { app_id: second, device_id: 'c-0' })).toBeNull();
    expect(await offered(ctx, { app_id: appId, device_id: 'c-0' })).toBeNull();
    expect(await offered(ctx, { app_id: appId, device_id: 'a-0' })).toBe(release.id);

    // Another workspace has its own count.
    const other = await hobbyAppWithRelease();
    expect(await offered(ctx, { app_id: other.appId, device_id: 'c-0' })).toBe(other.release.id);
  });

  it('is exact under concurrent checks: 150 new devices at once, exactly 100 served', async () => {
    const { appId } = await hobbyAppWithRelease();
    const results = await Promise.all(
      deviceIds(150, 'burst').map((device) => offered(ctx, { app_id: appId, device_id: device })),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(HOBBY_CAP);
  });

  it('lifts the cap at once when the plan is upgraded', async () => {
    const { workspaceId, appId, release } = await hobbyAppWithRelease();
    for (const device of deviceIds(HOBBY_CAP, 'up')) await offered(ctx, { app_id: appId, device_id: device });
    expect(await offered(ctx, { app_id: appId, device_id: 'waiting-1' })).toBeNull();

    await setPlan(ctx, workspaceId, 'pro');
    expect(await offered(ctx, { app_id: appId, device_id: 'waiting-1' })).toBe(release.id);
    expect(await offered(ctx, { app_id: appId, device_id: 'waiting-2' })).toBe(release.id);

    await setPlan(ctx, workspaceId, 'team');
    for (const device of deviceIds(20, 'team')) {
      expect(await offered(ctx, { app_id: appId, device_id: device })).toBe(release.id);
    }
  });

  it('keeps serving counted devices after a downgrade and refuses new ones while over the new cap', async () => {
    const workspaceId = await seedWorkspace(ctx, 'pro');
    const appId = await seedApp(ctx, workspaceId);
    const release = await seedRelease(ctx, appId);
    const devices = deviceIds(HOBBY_CAP + 20, 'down');
    for (const device of devices) await offered(ctx, { app_id: appId, device_id: device });
    await setPlan(ctx, workspaceId, 'hobby');
    expect(await offered(ctx, { app_id: appId, device_id: devices.at(-1)! })).toBe(release.id);
    expect(await offered(ctx, { app_id: appId, device_id: 'newcomer' })).toBeNull();
  });

  it('applies the pro cap of 10,000 the same way', async () => {
    const workspaceId = await seedWorkspace(ctx, 'pro');
    const appId = await seedApp(ctx, workspaceId);
    const release = await seedRelease(ctx, appId);
    const cap = capabilitiesOf('pro').deviceCap!;
    // Fill the set to one below the cap directly (ten thousand checks would only slow the test down).
    const gate = new DeviceCapGate(ctx.deps.redis, ctx.deps.keys, {
      windowDays: ctx.config.devices.windowDays,
    });
    const key = gate.setKey(workspaceId);
    const now = Date.now();
    const members = deviceIds(cap - 1, 'fill').flatMap((d) => [now, d]);
    for (let i = 0; i < members.length; i += 2000)
      await ctx.deps.redis.zadd(key, ...members.slice(i, i + 2000));
    expect(await offered(ctx, { app_id: appId, device_id: 'the-10000th' })).toBe(release.id);
    expect(await offered(ctx, { app_id: appId, device_id: 'the-10001st' })).toBeNull();
    expect(await offered(ctx, { app_id: appId, device_id: 'fill-17' })).toBe(release.id);
  });

  it('keeps a team workspace uncounted: no device set in Redis', async () => {
    const workspaceId = await seedWorkspace(ctx, 'team');
    const appId = await seedApp(ctx, workspaceId);
    await seedRelease(ctx, appId);
    for (const device of deviceIds(150, 'team')) await offered(ctx, { app_id: appId, device_id: device });
    const gate = new DeviceCapGate(ctx.deps.redis, ctx.deps.keys, { windowDays: 30 });
    expect(await ctx.deps.redis.exists(gate.setKey(workspaceId))).toBe(0);
  });
});

describe('device cap gate (rolling window, several processes)', () => {
  const workspace = () =>
    `00000000-0000-4000-8000-${Math.floor(Math.random() * 1e12)
      .toString()
      .padStart(12, '0')}`;

  it('agrees across processes sharing Redis: exactly `cap` devices admitted', async () => {
    const ws = workspace();
    const gates = [1, 2, 3].map(() => new DeviceCapGate(ctx.deps.redis, ctx.deps.keys, { windowDays: 30 }));
    const devices = deviceIds(60, 'multi');
    const admitted = await Promise.all(devices.map((d, i) => gates[i % 3]!.admit(ws, d, 25, ADDRESS)));
    expect(admitted.filter((a) => a === 'admitted')).toHaveLength(25);
    // A device admitted by one process is admitted by the others too.
    const first = devices[admitted.indexOf('admitted')]!;
    for (const gate of gates) expect(await gate.admit(ws, first, 25, ADDRESS)).toBe('admitted');
  });

  it('frees the place of a device not seen for the whole window, and not before', async () => {
    const ws = workspace();
    let now = Date.UTC(2026, 0, 1);
    // No in-process memory of admissions, so every call reaches the script.
    const gate = new DeviceCapGate(ctx.deps.redis, ctx.deps.keys, {
      windowDays: 30,
      cacheCapacity: 1,
      cacheTtlMs: 1,
      now: () => now,
    });
    expect(await gate.admit(ws, 'old', 2, ADDRESS)).toBe('admitted');
    now += 10 * DAY;
    expect(await gate.admit(ws, 'recent', 2, ADDRESS)).toBe('admitted');
    now += 19 * DAY;
    expect(await gate.admit(ws, 'new', 2, ADDRESS)).toBe('device_cap');
    now += DAY; // 'old' last seen exactly 30 days ago: still inside the window.
    expect(await gate.admit(ws, 'new', 2, ADDRESS)).toBe('device_cap');
    now += 1;
    expect(await gate.admit(ws, 'new', 2, ADDRESS)).toBe('admitted');
    // 'old' is no longer counted: it must queue like any new device.
    expect(await gate.admit(ws, 'old', 2, ADDRESS)).toBe('device_cap');
    expect(await gate.admit(ws, 'recent', 2, ADDRESS)).toBe('admitted');
  });

  it('refreshes the last-seen time of a counted device, so an active device never ages out', async () => {
    const ws = workspace();
    let now = Date.UTC(2026, 0, 1);
    const gate = new DeviceCapGate(ctx.deps.redis, ctx.deps.keys, {
      windowDays: 30,
      cacheCapacity: 1,
      cacheTtlMs: 1,
      now: () => now,
    });
    expect(await gate.admit(ws, 'active', 1, ADDRESS)).toBe('admitted');
    for (let day = 0; day < 90; day += 20) {
      now += 20 * DAY;
      // 'other' first: had the last check not refreshed 'active', it would have aged out by now.
      expect(await gate.admit(ws, 'other', 1, ADDRESS)).toBe('device_cap');
      expect(await gate.admit(ws, 'active', 1, ADDRESS)).toBe('admitted');
    }
  });

  it('needs no Redis call for a device this process admitted recently', async () => {
    const ws = workspace();
    const gate = new DeviceCapGate(ctx.deps.redis, ctx.deps.keys, { windowDays: 30 });
    expect(await gate.admit(ws, 'known', 5, ADDRESS)).toBe('admitted');
    expect(gate.admit(ws, 'known', 5, ADDRESS)).toBe('admitted'); // synchronous: answered from memory
    expect(gate.admit(ws, 'unknown', 5, ADDRESS)).toBeInstanceOf(Promise);
  });

  it('answers 503 for an unknown device while Redis is unreachable, and still admits known ones', async () => {
    const ws = workspace();
    const client = createRedis(ctx.config.redis, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    client.on('error', () => {});
    await new Promise((resolve) => client.once('ready', resolve));
    try {
      const gate = new DeviceCapGate(client, ctx.deps.keys, { windowDays: 30 });
      expect(await gate.admit(ws, 'known', 5, ADDRESS)).toBe('admitted');
      client.disconnect();
      const err = await Promise.resolve(gate.admit(ws, 'unknown', 5, ADDRESS)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(503);
      expect(gate.admit(ws, 'known', 5, ADDRESS)).toBe('admitted');
    } finally {
      client.disconnect();
    }
  });
});
