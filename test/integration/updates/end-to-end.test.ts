import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RedisDistinctDevices } from '../../../src/devices/distinct-devices.redis.js';
import { eventStreamKey } from '../../../src/intake/event-stream.js';
import { bucketOf } from '../../../src/updates/bucket.js';
import { fileContext } from '../../helpers/context.js';
import { download } from '../../helpers/downloads.js';
import { bundle, push, rollback, rollout, uploadBundle, workspaceWithApp } from '../releases/fixtures.js';
import { deviceIds, offered, settle } from './seed.js';

/** The update check driven by the real control API: uploads, pushes, rollouts, rollbacks, plan changes. */
const ctx = fileContext();

async function setPlan(workspaceId: string, headers: Record<string, string>, plan: string) {
  const res = await ctx.app.inject({
    method: 'PUT',
    url: `/api/v1/workspaces/${workspaceId}/plan`,
    headers,
    payload: { plan },
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('update check through the control API', () => {
  it('offers a pushed release whose URL serves the uploaded bytes', async () => {
    const ws = await workspaceWithApp(ctx);
    const bytes = randomBytes(50_000);
    const uploaded = await uploadBundle(ctx, ws.headers, ws.appId, bytes);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const pushed = await push(ctx, ws.headers, {
      app_id: ws.appId,
      version: '2.0.0',
      sha256: uploaded.json().sha256,
      notes: 'hello',
    });
    expect(pushed.statusCode, pushed.body).toBe(201);
    await settle(ctx);

    const check = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/updates/check',
      payload: { app_id: ws.appId, device_id: 'phone-1' },
    });
    const update = check.json().update;
    expect(update).toMatchObject({
      module_id: pushed.json().id,
      version: '2.0.0',
      size: bytes.length,
      notes: 'hello',
    });
    // From the API (disk) or the bucket (S3), as the device would fetch it.
    const whole = await download(ctx, update.url);
    expect(whole.status).toBe(200);
    expect(whole.bytes.equals(bytes)).toBe(true);
    const part = await download(ctx, update.url, { range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.bytes.equals(bytes.subarray(100, 200))).toBe(true);
  });

  it("counts the bundle each device is offered once in the release's bytes_served", async () => {
    const ws = await workspaceWithApp(ctx);
    const bytes = randomBytes(30_000);
    const sha256 = (await uploadBundle(ctx, ws.headers, ws.appId, bytes)).json().sha256;
    const pushed = await push(ctx, ws.headers, { app_id: ws.appId, version: '2.0.0', sha256 });
    expect(pushed.statusCode, pushed.body).toBe(201);
    await settle(ctx);
    // Two devices, each checking twice before it installs, and one already on the release: two downloads.
    for (const device_id of ['counted-1', 'counted-2', 'counted-1', 'counted-2'])
      expect(await offered(ctx, { app_id: ws.appId, device_id })).toBe(pushed.json().id);
    const current_module_id = pushed.json().id;
    expect(await offered(ctx, { app_id: ws.appId, device_id: 'counted-3', current_module_id })).toBeNull();
    await ctx.deps.stores.bytesServed.flush();
    const release = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/modules/${pushed.json().id}`,
      headers: ws.headers,
    });
    expect(release.json().stats.bytes_served).toEqual({ full: 2 * bytes.length, patch: 0, per_file: 0 });
  });

  it('follows rollout changes and a rollback made through the API', async () => {
    const ws = await workspaceWithApp(ctx);
    await setPlan(ws.workspaceId, ws.headers, 'pro');
    const base = await push(ctx, ws.headers, {
      app_id: ws.appId,
      version: '1.0.0',
      sha256: await bundle(ctx, ws.headers, ws.appId),
    });
    const staged = await push(ctx, ws.headers, {
      app_id: ws.appId,
      version: '1.1.0',
      sha256: await bundle(ctx, ws.headers, ws.appId),
      rollout_pct: 10,
    });
    const [baseId, stagedId] = [base.json().id as string, staged.json().id as string];
    await settle(ctx);
    const devices = deviceIds(300, 'api');
    const servedAt = async (pct: number) => {
      for (const d of devices) {
        const expected = bucketOf(stagedId, d) < pct ? stagedId : baseId;
        expect(await offered(ctx, { app_id: ws.appId, device_id: d }), `${d} at ${pct} %`).toBe(expected);
      }
    };
    await servedAt(10);
    expect((await rollout(ctx, ws.headers, stagedId, 50)).statusCode).toBe(200);
    await settle(ctx);
    await servedAt(50);

    expect((await rollback(ctx, ws.headers, stagedId)).statusCode).toBe(200);
    const device = devices.find((d) => bucketOf(stagedId, d) < 50)!;
    // The rollback's invalidation is published before the API answers; once a later message is applied,
    // so was it.
    await settle(ctx);
    expect(await offered(ctx, { app_id: ws.appId, device_id: device })).toBe(baseId);
  });

  it('lifts the hobby cap as soon as the owner upgrades the plan', async () => {
    const ws = await workspaceWithApp(ctx);
    const pushed = await push(ctx, ws.headers, {
      app_id: ws.appId,
      version: '1.0.0',
      sha256: await bundle(ctx, ws.headers, ws.appId),
    });
    await settle(ctx);
    for (const d of deviceIds(100, 'hobby')) {
      expect(await offered(ctx, { app_id: ws.appId, device_id: d })).toBe(pushed.json().id);
    }
    expect(await offered(ctx, { app_id: ws.appId, device_id: 'the-101st' })).toBeNull();

    await setPlan(ws.workspaceId, ws.headers, 'pro');
    await settle(ctx);
    expect(await offered(ctx, { app_id: ws.appId, device_id: 'the-101st' })).toBe(pushed.json().id);

    // The usage endpoint reads the HyperLogLog counters the checks fed (written every 250 ms).
    await (ctx.deps.services.distinctDevices as RedisDistinctDevices).flush();
    const after = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${ws.workspaceId}/usage`,
      headers: ws.headers,
    });
    expect(after.json()).toMatchObject({ plan: 'pro', device_cap: 10_000 });
    expect(after.json().distinct_devices).toBeGreaterThanOrEqual(99);
    expect(after.json().distinct_devices).toBeLessThanOrEqual(103);
  });

  it('hands checks to the check recorder, which writes them to the device event stream', async () => {
    const ws = await workspaceWithApp(ctx);
    await ctx.deps.services.checkRecorder.flush();
    const stream = eventStreamKey(ctx.deps.keys);
    const before = await ctx.deps.redis.xlen(stream);
    for (const d of deviceIds(5, 'counted')) await offered(ctx, { app_id: ws.appId, device_id: d });
    await ctx.deps.services.checkRecorder.flush();
    expect(await ctx.deps.redis.xlen(stream)).toBeGreaterThan(before);
  });
});
