import { describe, expect, it } from 'vitest';
import { RedisDistinctDevices } from '../../../src/devices/distinct-devices.redis.js';
import { fileContext } from '../../helpers/context.js';
import { deviceIds, offered, seedApp, seedRelease, seedWorkspace } from './seed.js';

const ctx = fileContext();

const DAY = 86_400_000;
const within = (actual: number, expected: number, tolerance: number) =>
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(Math.ceil(expected * tolerance));

/** The real Redis, with the number of devices of each PFADD noted on its way. */
function notingPfadd() {
  const sizes: number[] = [];
  const redis = new Proxy(ctx.deps.redis, {
    get(target, name, receiver) {
      if (name === 'pfadd')
        return (key: string, ...members: string[]) => {
          sizes.push(members.length);
          return target.pfadd(key, ...members);
        };
      const value = Reflect.get(target, name, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { redis, sizes };
}

describe('distinct devices (HyperLogLog)', () => {
  it('counts the distinct devices that checked, across the apps of a workspace', async () => {
    const workspaceId = await seedWorkspace(ctx, 'team');
    const [a, b] = [await seedApp(ctx, workspaceId), await seedApp(ctx, workspaceId)];
    await seedRelease(ctx, a);
    for (const device of deviceIds(300, 'x')) await offered(ctx, { app_id: a, device_id: device });
    // The same devices again, on another app: still 300 distinct, plus 200 new ones.
    for (const device of deviceIds(500, 'x')) await offered(ctx, { app_id: b, device_id: device });
    const counter = ctx.deps.services.distinctDevices as RedisDistinctDevices;
    await counter.flush();
    within(await counter.distinctDevices(workspaceId), 500, 0.02);
  });

  it('does not count devices refused at the cap', async () => {
    const workspaceId = await seedWorkspace(ctx, 'hobby');
    const appId = await seedApp(ctx, workspaceId);
    await seedRelease(ctx, appId);
    for (const device of deviceIds(150, 'capped')) await offered(ctx, { app_id: appId, device_id: device });
    const counter = ctx.deps.services.distinctDevices as RedisDistinctDevices;
    await counter.flush();
    within(await counter.distinctDevices(workspaceId), 100, 0.02);
  });

  it('merges the daily counters of the window and leaves older days out', async () => {
    let now = Date.UTC(2026, 2, 1, 12);
    const counter = new RedisDistinctDevices(ctx.deps.redis, ctx.deps.keys, {
      windowDays: 30,
      now: () => now,
    });
    const ws = 'a0a0a0a0-0000-4000-8000-000000000001';
    for (const d of deviceIds(400, 'early')) counter.add(ws, d);
    await counter.flush();
    now += 10 * DAY;
    for (const d of deviceIds(200, 'early')) counter.add(ws, d); // seen again: not new
    for (const d of deviceIds(300, 'later')) counter.add(ws, d);
    await counter.flush();
    within(await counter.distinctDevices(ws), 700, 0.02);
    now += 20 * DAY; // the first day has left the 30-day window
    within(await counter.distinctDevices(ws), 500, 0.02);

    const key = counter.dayKey(ws, now - 20 * DAY);
    expect(key).toContain(`{ws:${ws}}`);
    const ttl = await ctx.deps.redis.pttl(key);
    expect(ttl).toBeGreaterThan(30 * DAY);
    expect(ttl).toBeLessThanOrEqual(31 * DAY);
  });

  it('writes a full buffer at once, without waiting for the timer', async () => {
    const ws = 'a0a0a0a0-0000-4000-8000-000000000002';
    const counter = new RedisDistinctDevices(ctx.deps.redis, ctx.deps.keys, {
      windowDays: 30,
      maxPending: 100,
    });
    for (const d of deviceIds(100, 'burst')) counter.add(ws, d);
    // The size-triggered write is under way; a flush joins it.
    await counter.flush();
    within(await counter.distinctDevices(ws), 100, 0.02);
  });

  it('writes a large buffer in commands of at most 1,000 devices, so no one command holds the event loop', async () => {
    const ws = 'a0a0a0a0-0000-4000-8000-000000000004';
    const { redis, sizes } = notingPfadd();
    const counter = new RedisDistinctDevices(redis, ctx.deps.keys, { windowDays: 30 });
    for (const d of deviceIds(2500, 'large')) counter.add(ws, d);
    await counter.flush();
    expect(sizes).toEqual([1000, 1000, 500]);
    within(await counter.distinctDevices(ws), 2500, 0.02);
  });

  it('writes buffered devices on its timer', async () => {
    const ws = 'a0a0a0a0-0000-4000-8000-000000000003';
    const counter = new RedisDistinctDevices(ctx.deps.redis, ctx.deps.keys, { windowDays: 30, flushMs: 20 });
    counter.start();
    try {
      for (const d of deviceIds(10, 'timer')) counter.add(ws, d);
      const deadline = Date.now() + 5000;
      while ((await counter.distinctDevices(ws)) < 10 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(await counter.distinctDevices(ws)).toBe(10);
    } finally {
      await counter.stop();
    }
  });

  it('writes a device once a day, however often it checks, and again on the next day', async () => {
    const ws = 'a0a0a0a0-0000-4000-8000-000000000005';
    let now = Date.UTC(2026, 2, 1, 12);
    const { redis, sizes } = notingPfadd();
    const counter = new RedisDistinctDevices(redis, ctx.deps.keys, { windowDays: 30, now: () => now });
    const fleet = deviceIds(300, 'daily');
    for (let pass = 0; pass < 3; pass++) {
      for (const d of fleet) counter.add(ws, d);
      await counter.flush();
    }
    expect(sizes).toEqual([300]);
    now += DAY;
    for (const d of fleet) counter.add(ws, d);
    await counter.flush();
    expect(sizes).toEqual([300, 300]);
    within(await counter.distinctDevices(ws), 300, 0.02);
  });

  it('writes every device at least once when its memory of written devices is too small for the fleet', async () => {
    const ws = 'a0a0a0a0-0000-4000-8000-000000000006';
    const { redis, sizes } = notingPfadd();
    // Room for about 16 devices (64 slots) against 300 checking three times: most are written again.
    const counter = new RedisDistinctDevices(redis, ctx.deps.keys, { windowDays: 30, remember: 16 });
    const fleet = deviceIds(300, 'small');
    for (let pass = 0; pass < 3; pass++) {
      for (const d of fleet) counter.add(ws, d);
      await counter.flush();
    }
    const written = sizes.reduce((a, b) => a + b, 0);
    expect(written).toBeGreaterThan(300);
    expect(written).toBeLessThan(900);
    within(await counter.distinctDevices(ws), 300, 0.02);
  });

  it('writes again the devices of a failed write (they are not remembered as written)', async () => {
    const ws = 'a0a0a0a0-0000-4000-8000-000000000007';
    let failing = true;
    const sizes: number[] = [];
    const redis = new Proxy(ctx.deps.redis, {
      get(target, name, receiver) {
        if (name === 'pfadd')
          return (key: string, ...members: string[]) => {
            if (failing) return Promise.reject(new Error('Redis is away'));
            sizes.push(members.length);
            return target.pfadd(key, ...members);
          };
        const value = Reflect.get(target, name, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const counter = new RedisDistinctDevices(redis, ctx.deps.keys, { windowDays: 30 });
    for (const d of deviceIds(50, 'retry')) counter.add(ws, d);
    await counter.flush();
    failing = false;
    for (const d of deviceIds(50, 'retry')) counter.add(ws, d);
    await counter.flush();
    expect(sizes).toEqual([50]);
    within(await counter.distinctDevices(ws), 50, 0.02);
  });
});
