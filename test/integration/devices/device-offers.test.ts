import { describe, expect, it } from 'vitest';
import { FakeDeviceOffers } from '../../../src/devices/device-offers.fake-store.js';
import { type DeviceOffers, RedisDeviceOffers } from '../../../src/devices/device-offers.js';
import type { RedisDistinctDevices } from '../../../src/devices/distinct-devices.redis.js';
import { keyspaceNodes } from '../../../src/platform/redis.js';
import { CapacitorDevice } from '../../helpers/capacitor-device.js';
import { fileContext } from '../../helpers/context.js';
import { capacitorRelease, check, send } from '../capacitor/harness.js';
import { setPlan, workspaceWithApp } from '../releases/fixtures.js';
import { drainIngest } from '../telemetry/fixtures.js';
import { deviceIds, offered, seedApp, seedRelease, seedWorkspace } from '../updates/seed.js';

/**
 * What the service last offered each device, in Redis: a key per device offered a release, expiring a device
 * window later, and none for a device whose last answer offered nothing (up to date, refused at the cap,
 * 429), so invented device ids make no key.
 */
const ctx = fileContext({ env: { RATE_LIMIT_DEVICE_PER_MINUTE: '2' } });
const DAY = 86_400_000;

/** Writes what the checks noted (the distinct-device writer's timer does it every 250 ms). */
const flush = () => (ctx.deps.services.distinctDevices as RedisDistinctDevices).flush();
const offers = () => ctx.deps.services.deviceOffers;

async function offerKeys(): Promise<string[]> {
  const found: string[] = [];
  for (const node of keyspaceNodes(ctx.deps.redis)) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', `${ctx.config.redisKeyPrefix}*:offer:*`);
      cursor = next;
      found.push(...keys);
    } while (cursor !== '0');
  }
  return found;
}

/** A Capacitor device of the test (plugin 8, Android), named `name`. */
const capDevice = (name: string) => new CapacitorDevice({ deviceId: `${name}-${crypto.randomUUID()}` });

describe('device offers', () => {
  it('keep the release offered for a device window, and nothing once an answer offers nothing', async () => {
    const ws = await workspaceWithApp(ctx);
    const release = await capacitorRelease(ctx, ws, '1.0.1');
    const device = capDevice('phone');
    expect(await check(ctx, ws.appId, device)).toMatchObject({ kind: 'update', version: '1.0.1' });
    await flush();
    const key = offers().key(ws.workspaceId, ws.appId, device.deviceId);
    expect(await ctx.deps.redis.get(key)).toBe(release.id);
    const ttl = await ctx.deps.redis.pttl(key);
    expect(ttl).toBeGreaterThan(ctx.config.devices.windowDays * DAY - 60_000);
    expect(ttl).toBeLessThanOrEqual(ctx.config.devices.windowDays * DAY);
    // It installed the release: up to date, offered nothing.
    device.versionName = '1.0.1';
    expect(await check(ctx, ws.appId, device)).toMatchObject({ kind: 'up_to_date' });
    await flush();
    expect(await ctx.deps.redis.exists(key)).toBe(0);
    expect(await offers().offered(ws.workspaceId, ws.appId, device.deviceId)).toBeNull();
  });

  it('make no key for devices refused at the cap, throttled, or up to date, nor for other protocols', async () => {
    const ws = await workspaceWithApp(ctx);
    await setPlan(ctx, ws.workspaceId, 'hobby');
    await capacitorRelease(ctx, ws, '1.0.1');
    const before = (await offerKeys()).length;
    const devices = Array.from({ length: 110 }, () => capDevice('capped'));
    for (const device of devices) await check(ctx, ws.appId, device);
    await flush();
    // The 100 the hobby cap admits were offered the release; the 10 refused make no key.
    expect((await offerKeys()).length - before).toBe(100);
    for (const device of devices.slice(0, 100)) {
      device.versionName = '1.0.1';
      expect(await check(ctx, ws.appId, device)).toMatchObject({ kind: 'up_to_date' });
    }
    // Throttled checks (the limit here is 2 a minute) of invented devices: 429, no key either.
    for (let d = 0; d < 20; d++) {
      const device = capDevice('throttled');
      for (let i = 0; i < 3; i++) await check(ctx, ws.appId, device);
    }
    // The other protocols' failure reports name their release: their checks note nothing.
    const team = await seedWorkspace(ctx, 'team');
    const appId = await seedApp(ctx, team);
    const other = await seedRelease(ctx, appId);
    for (const device of deviceIds(20, 'sdk')) {
      expect(await offered(ctx, { app_id: appId, device_id: device })).toBe(other.id);
    }
    await flush();
    expect((await offerKeys()).length).toBe(before);
  });
});

describe('the fake device offers', () => {
  it('answer as the Redis ones do', async () => {
    const redis = new RedisDeviceOffers(ctx.deps.redis, ctx.deps.keys, { windowDays: 30 });
    for (const [name, store, written] of [
      ['fake', new FakeDeviceOffers(), async () => {}],
      ['redis', redis, () => redis.flush()],
    ] as Array<[string, DeviceOffers, () => Promise<void>]>) {
      const ws = crypto.randomUUID();
      const app = crypto.randomUUID();
      const release = crypto.randomUUID();
      expect(await store.offered(ws, app, 'd1'), name).toBeNull();
      store.note(ws, app, 'd1', release);
      store.note(ws, app, 'd2', release);
      store.note(ws, app, 'd2', null);
      await written();
      expect(await store.offered(ws, app, 'd1'), name).toBe(release);
      expect(await store.offered(ws, app, 'd2'), name).toBeNull();
      expect(await store.offered(ws, crypto.randomUUID(), 'd1'), name).toBeNull();
      store.note(ws, app, 'd1', null);
      await written();
      expect(await store.offered(ws, app, 'd1'), name).toBeNull();
    }
  });
});

describe('Capacitor failures after a 429', () => {
  it('a download_fail after a throttled check is no release’s error, not the offered one’s', async () => {
    const ws = await workspaceWithApp(ctx);
    const old = await capacitorRelease(ctx, ws, '1.0.0');
    const device = new CapacitorDevice({ deviceId: `throttled-${crypto.randomUUID()}` });
    device.versionName = old.version;
    const next = await capacitorRelease(ctx, ws, '1.0.1');
    expect(await check(ctx, ws.appId, device)).toMatchObject({ kind: 'update', version: next.version });
    await offers().flush();
    expect(await offers().offered(ws.workspaceId, ws.appId, device.deviceId)).toBe(next.id);
    // Two checks a minute: the second one still offers 1.0.1, the third is answered 429. Plugin 8 takes the
    // 429 for a failed check and, once Retry-After has passed, reports `download_fail` of the bundle it runs.
    await check(ctx, ws.appId, device);
    const throttled = await check(ctx, ws.appId, device);
    expect(throttled.raw.statusCode).toBe(429);
    expect(throttled).toMatchObject({ kind: 'failed' });
    const batch = device.flushStats();
    expect(batch).toEqual([expect.objectContaining({ action: 'download_fail', version_name: old.version })]);
    expect((await send(ctx, ws.appId, 'stats', batch)).statusCode).toBe(200);
    await drainIngest(ctx.deps);
    for (const release of [old, next]) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/modules/${release.id}`,
        headers: ws.headers,
      });
      expect(res.json().stats).toMatchObject({ errors: 0 });
    }
  });
});
