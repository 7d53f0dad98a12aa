import { describe, expect, it } from 'vitest';
import { upgradeMessage } from '../../../src/plans/plans.js';
import { expectProblem, fileContext } from '../../helpers/context.js';
import { bundle, push, release, setPlan, workspaceWithApp, writes } from './fixtures.js';

/**
 * What a person types instead of UUIDs: app names unique per workspace, versions unique per app and channel,
 * releases found by version or id prefix, and the push asked about before its bytes are sent.
 */
const ctx = fileContext();

describe('app names', () => {
  it('refuses a second app of the same name in a workspace with 409; another workspace may use it', async () => {
    const ws = await workspaceWithApp(ctx, 'Shop');
    const before = await writes(ctx, ws.workspaceId);
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/apps',
      headers: ws.headers,
      payload: { name: 'Shop' },
    });
    const problem = expectProblem(again, 409, 'app_name_taken');
    expect(problem.detail).toContain('"Shop"');
    expect(await writes(ctx, ws.workspaceId)).toEqual(before);
    await workspaceWithApp(ctx, 'Shop');
  });
});

describe('release versions', () => {
  it('refuses a version the app already has on that channel with 409 and writes nothing', async () => {
    const ws = await workspaceWithApp(ctx);
    await release(ctx, ws, { version: '1.0.2' });
    const sha256 = await bundle(ctx, ws.headers, ws.appId);
    const before = await writes(ctx, ws.workspaceId);
    const res = await push(ctx, ws.headers, { app_id: ws.appId, version: '1.0.2', sha256 });
    const problem = expectProblem(res, 409, 'version_exists');
    expect(problem.detail).toContain('1.0.2');
    expect(await writes(ctx, ws.workspaceId)).toEqual(before);
    await setPlan(ctx, ws.workspaceId, 'pro');
    const other = await push(ctx, ws.headers, {
      app_id: ws.appId,
      version: '1.0.2',
      sha256,
      channel: 'beta',
    });
    expect(other.statusCode, other.body).toBe(201);
  });
});

describe('GET /modules/lookup', () => {
  it('finds a release by version or by id prefix, and lists every match of an ambiguous prefix', async () => {
    const ws = await workspaceWithApp(ctx);
    const a = await release(ctx, ws, { version: '1.0.0' });
    const b = await release(ctx, ws, { version: '1.0.1' });
    const look = (query: string) =>
      ctx.app.inject({ method: 'GET', url: `/api/v1/modules/lookup?${query}`, headers: ws.headers });

    const byVersion = await look(`ref=1.0.1&app_id=${ws.appId}`);
    expect(byVersion.statusCode, byVersion.body).toBe(200);
    expect(byVersion.json().matches.map((m: { id: string }) => m.id)).toEqual([b.id]);

    const byPrefix = await look(`ref=${a.id.slice(0, 8).toUpperCase()}`);
    expect(byPrefix.json().matches.map((m: { id: string }) => m.id)).toEqual([a.id]);

    const none = await look(`ref=9.9.9&app_id=${ws.appId}`);
    expect(none.json().matches).toEqual([]);

    // Under six characters a ref is only ever a version.
    expect((await look(`ref=${a.id.slice(0, 5)}`)).json().matches).toEqual([]);
    expectProblem(await look('ref='), 400, 'invalid_request');

    // Another workspace's release is never found, by prefix or version.
    const stranger = await workspaceWithApp(ctx);
    const theirs = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/modules/lookup?ref=${a.id.slice(0, 8)}`,
      headers: stranger.headers,
    });
    expect(theirs.json().matches).toEqual([]);
  });
});

describe('POST /modules/preflight', () => {
  it('answers the push’s plan gate, duplicate version and size limit before any bytes are sent', async () => {
    const ws = await workspaceWithApp(ctx);
    await release(ctx, ws, { version: '1.0.0' });
    const before = await writes(ctx, ws.workspaceId);
    const preflight = (body: Record<string, unknown>) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/modules/preflight',
        headers: ws.headers,
        payload: body,
      });

    const staging = expectProblem(
      await preflight({ app_id: ws.appId, version: '2.0.0', channel: 'staging', size: 4_000_000 }),
      402,
      'plan_upgrade_required',
    );
    expect(staging.detail).toBe(upgradeMessage('hobby', 'extraChannels'));
    expectProblem(await preflight({ app_id: ws.appId, version: '1.0.0' }), 409, 'version_exists');
    expectProblem(
      await preflight({ app_id: ws.appId, version: '2.0.0', size: 10 ** 12 }),
      413,
      'payload_too_large',
    );
    const fine = await preflight({ app_id: ws.appId, version: '2.0.0', size: 4_000_000 });
    expect(fine.statusCode, fine.body).toBe(200);
    expect(fine.json()).toMatchObject({ allowed: true, channel: 'production', rollout_pct: 100 });
    expect(await writes(ctx, ws.workspaceId)).toEqual(before);
  });
});

describe('enum errors', () => {
  it('name the valid values instead of "must be equal to constant"', async () => {
    const ws = await workspaceWithApp(ctx);
    await setPlan(ctx, ws.workspaceId, 'team');
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/audit?action=nonsense',
      headers: ws.headers,
    });
    const problem = expectProblem(res, 400, 'invalid_request');
    expect(problem.detail).not.toContain('constant');
    expect(problem.detail).toContain('must be one of: login, account.create, app.create');
    expect(problem.detail).toContain('device.release');
  });
});
