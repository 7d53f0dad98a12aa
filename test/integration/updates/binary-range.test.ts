import { describe, expect, it } from 'vitest';
import { bucketOf } from '../../../src/updates/bucket.js';
import { expectProblem, fileContext } from '../../helpers/context.js';
import {
  audit,
  bundle,
  push,
  release,
  rollback,
  rollout,
  setPlan,
  type Workspace,
  workspaceWithApp,
  writes,
} from '../releases/fixtures.js';
import { checkRaw, deviceIds, offered, settle } from './seed.js';

/** Releases with a target_binary_range, pushed through the API, and update checks sending app_version. */
const ctx = fileContext();

async function ranged(ws: Workspace, version: string, range: string | null, extra: object = {}) {
  const r = await release(ctx, ws, { version, target_binary_range: range, ...extra });
  await settle(ctx);
  return r;
}

describe('target_binary_range on push', () => {
  it('is stored as given, answered with the release, audited, and null when absent', async () => {
    const ws = await workspaceWithApp(ctx);
    const r = await release(ctx, ws, { version: '1', target_binary_range: ' >=1.0.0 <2.0.0 ' });
    expect(r.target_binary_range).toBe('>=1.0.0 <2.0.0');
    const plain = await release(ctx, ws, { version: '2' });
    expect(plain.target_binary_range).toBeNull();
    const got = await ctx.app.inject({ method: 'GET', url: `/api/v1/modules/${r.id}`, headers: ws.headers });
    expect(got.json().target_binary_range).toBe('>=1.0.0 <2.0.0');
    const pushed = await audit(ctx, ws.workspaceId, 'module.push');
    expect(pushed[0]!.details.target_binary_range).toBe('>=1.0.0 <2.0.0');
  });

  it('refuses what semver cannot read as a range with 400, writing nothing', async () => {
    const ws = await workspaceWithApp(ctx);
    const sha256 = await bundle(ctx, ws.headers, ws.appId);
    const before = await writes(ctx, ws.workspaceId);
    for (const range of ['latest', '1.2.3.4', '', '  ', '>=1 junk', 'x'.repeat(129), '\u0007', 42, ['1.x']]) {
      const res = await push(ctx, ws.headers, {
        app_id: ws.appId,
        version: '1',
        sha256,
        target_binary_range: range,
      });
      expectProblem(res, 400);
    }
    const res = await push(ctx, ws.headers, {
      app_id: ws.appId,
      version: '1',
      sha256,
      target_binary_range: 'latest',
    });
    expectProblem(res, 400, 'invalid_target_binary_range');
    expect(await writes(ctx, ws.workspaceId)).toEqual(before);
  });
});

describe('update check with app_version', () => {
  it('serves a ranged release only to app versions inside it; others fall through to earlier releases', async () => {
    const ws = await workspaceWithApp(ctx);
    const base = await ranged(ws, '1', null);
    const v1 = await ranged(ws, '2', '1.x');
    const v2 = await ranged(ws, '3', '^2.0.0');
    const check = (app_version?: string) =>
      offered(ctx, { app_id: ws.appId, device_id: 'phone', ...(app_version ? { app_version } : {}) });
    expect(await check('2.4.1')).toBe(v2.id);
    expect(await check('1.9.0')).toBe(v1.id);
    expect(await check('1.0')).toBe(v1.id); // "1.0" is read as 1.0.0
    expect(await check('3')).toBe(base.id);
    expect(await check('0.9.0')).toBe(base.id);
    // A release with a range is never served to a device that sends no app_version.
    expect(await check()).toBe(base.id);
  });

  it('answers no update when no release fits the native version, and a 400 for a version that is not one', async () => {
    const ws = await workspaceWithApp(ctx);
    await ranged(ws, '1', '^2.0.0');
    expect(await offered(ctx, { app_id: ws.appId, device_id: 'd', app_version: '1.0.0' })).toBeNull();
    for (const app_version of ['banana', '1.2.3.4', '^2.0.0', '', 'x'.repeat(65), '1.0.0 (45)']) {
      expectProblem(await checkRaw(ctx, { app_id: ws.appId, device_id: 'd', app_version }), 400);
    }
    expectProblem(
      await checkRaw(ctx, { app_id: ws.appId, device_id: 'd', app_version: 'banana' }),
      400,
      'invalid_app_version',
    );
    expect((await checkRaw(ctx, { app_id: ws.appId, device_id: 'd', app_version: null })).statusCode).toBe(
      200,
    );
  });

  it('keeps stacked rollouts and rollback: a staged ranged release over a plain one', async () => {
    const ws = await workspaceWithApp(ctx);
    await setPlan(ctx, ws.workspaceId, 'pro');
    const base = await ranged(ws, '1', null);
    const staged = await ranged(ws, '2', '>=2.0.0', { rollout_pct: 40 });
    const devices = deviceIds(120, 'staged');
    for (const device of devices) {
      const inside = bucketOf(staged.id, device) < 40;
      const got = await offered(ctx, { app_id: ws.appId, device_id: device, app_version: '2.1.0' });
      expect(got, device).toBe(inside ? staged.id : base.id);
      // Outside the range the bucket does not matter.
      expect(await offered(ctx, { app_id: ws.appId, device_id: device, app_version: '1.5.0' })).toBe(base.id);
    }
    expect((await rollout(ctx, ws.headers, staged.id, 100)).statusCode).toBe(200);
    await settle(ctx);
    expect(await offered(ctx, { app_id: ws.appId, device_id: devices[0]!, app_version: '2.1.0' })).toBe(
      staged.id,
    );
    expect((await rollback(ctx, ws.headers, staged.id)).statusCode).toBe(200);
    await settle(ctx);
    expect(await offered(ctx, { app_id: ws.appId, device_id: devices[0]!, app_version: '2.1.0' })).toBe(
      base.id,
    );
  });
});
