import { describe, expect, it, vi } from 'vitest';
import { expectProblem, fileContext } from '../../helpers/context.js';
import {
  apiKey,
  audit,
  bundle,
  outbox,
  push,
  release,
  rollback,
  rollout,
  setPlan,
  workspaceWithApp,
  writes,
} from './fixtures.js';

const ctx = fileContext();

describe('push', () => {
  it('creates an active release with the defaults, audits module.push and writes release.pushed once', async () => {
    const ws = await workspaceWithApp(ctx, 'Shop');
    const sha256 = await bundle(ctx, ws.headers, ws.appId);
    const res = await push(ctx, ws.headers, { app_id: ws.appId, version: '2026.11.22-0512', sha256 });
    expect(res.statusCode, res.body).toBe(201);
    const r = res.json();
    expect(r).toMatchObject({
      app_id: ws.appId,
      version: '2026.11.22-0512',
      channel: 'production',
      rollout_pct: 100,
      mandatory: false,
      notes: '',
      sha256,
      size: 2048,
      fingerprint: null,
      active: true,
    });
    expect(r.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const pushed = await audit(ctx, ws.workspaceId, 'module.push');
    expect(pushed).toHaveLength(1);
    expect(pushed[0]).toMatchObject({ actor: ws.email, app_id: ws.appId });
    expect(pushed[0]!.details).toMatchObject({ module_id: r.id, version: r.version, channel: 'production' });

    expect(await outbox(ctx, ws.workspaceId)).toEqual([
      {
        event: 'release.pushed',
        data: {
          app_id: ws.appId,
          app_name: 'Shop',
          module_id: r.id,
          version: '2026.11.22-0512',
          channel: 'production',
          rollout_pct: 100,
          mandatory: false,
          sha256,
          notes: '',
        },
      },
    ]);
  });

  it('takes every optional field, upper-case hex included, and a registered fingerprint', async () => {
    const ws = await workspaceWithApp(ctx);
    await setPlan(ctx, ws.workspaceId, 'pro');
    const sha256 = await bundle(ctx, ws.headers, ws.appId);
    const fp = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/apps/${ws.appId}/fingerprints`,
      headers: ws.headers,
      payload: { fingerprint: 'ios-2.3.1+45' },
    });
    expect(fp.statusCode).toBe(201);
    const res = await push(ctx, ws.headers, {
      app_id: ws.appId,
      version: 'v2-beta',
      sha256: sha256.toUpperCase(),
      channel: 'beta-2',
      rollout_pct: 12.5,
      mandatory: true,
      notes: 'Fixes checkout',
      fingerprint: 'ios-2.3.1+45',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      sha256,
      channel: 'beta-2',
      rollout_pct: 12.5,
      mandatory: true,
      notes: 'Fixes checkout',
      fingerprint: 'ios-2.3.1+45',
    });
  });

  it('refuses a bundle the app did not upload and an unregistered fingerprint, writing nothing', async () => {
    const ws = await workspaceWithApp(ctx);
    const other = await workspaceWithApp(ctx);
    const foreignSha = await bundle(ctx, other.headers, other.appId);
    const ownSha = await bundle(ctx, ws.headers, ws.appId);
    const before = await writes(ctx, ws.workspaceId);

    const foreign = await push(ctx, ws.headers, { app_id: ws.appId, version: '1', sha256: foreignSha });
    expectProblem(foreign, 400, 'unknown_bundle');
    const never = await push(ctx, ws.headers, { app_id: ws.appId, version: '1', sha256: 'a'.repeat(64) });
    expectProblem(never, 400, 'unknown_bundle');
    const fp = await push(ctx, ws.headers, {
      app_id: ws.appId,
      version: '1',
      sha256: ownSha,
      fingerprint: 'never-registered',
    });
    expectProblem(fp, 400, 'unknown_fingerprint');

    expect(await writes(ctx, ws.workspaceId)).toEqual(before);
    const { rows } = await ctx.deps.db.query('SELECT 1 FROM releases WHERE app_id = $1', [ws.appId]);
    expect(rows).toHaveLength(0);
  });

  it('validates every field with a 400 problem', async () => {
    const ws = await workspaceWithApp(ctx);
    const sha256 = await bundle(ctx, ws.headers, ws.appId);
    const ok = { app_id: ws.appId, version: '1.0', sha256 };
    const bad: Array<Record<string, unknown>> = [
      { ...ok, app_id: 'nope' },
      { ...ok, version: '' },
      { ...ok, version: 'x'.repeat(65) },
      { ...ok, version: 'line\nbreak' },
      // Spaces, and what a device protocol cannot carry as it is (a slash in a path, non-ASCII in a header).
      { ...ok, version: 'not a version' },
      { ...ok, version: 'v1/2' },
      { ...ok, version: 'версия' },
      { ...ok, version: '-1.0' },
      { ...ok, version: 7 },
      { ...ok, sha256: 'abc' },
      { ...ok, channel: 'Beta' },
      { ...ok, channel: '' },
      { ...ok, channel: 'c'.repeat(65) },
      { ...ok, channel: 'has space' },
      { ...ok, rollout_pct: 101 },
      { ...ok, rollout_pct: -1 },
      { ...ok, rollout_pct: '50' },
      { ...ok, mandatory: 'yes' },
      { ...ok, notes: 5 },
      { ...ok, surprise: true },
      { version: '1', sha256 },
    ];
    for (const body of bad) expectProblem(await push(ctx, ws.headers, body), 400, 'invalid_request');
  });
});

describe('reads', () => {
  it('lists newest first with stats, filters by channel, pages, and asks for stats once per page', async () => {
    const ws = await workspaceWithApp(ctx);
    await setPlan(ctx, ws.workspaceId, 'team');
    const a = await release(ctx, ws, { version: 'a' });
    const b = await release(ctx, ws, { version: 'b', channel: 'beta' });
    const c = await release(ctx, ws, { version: 'c', rollout_pct: 30 });

    // The provider wired into the releases service is the container's: count its calls on that object.
    const statsFor = vi.spyOn(ctx.deps.services.releaseStats, 'statsFor');
    const calls = () => statsFor.mock.calls.map(([refs]) => refs.length);
    try {
      const all = await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/apps/${ws.appId}/modules`,
        headers: ws.headers,
      });
      expect(all.statusCode, all.body).toBe(200);
      const list = all.json();
      expect(list.modules.map((m: { id: string }) => m.id)).toEqual([c.id, b.id, a.id]);
      expect(list.modules[0].stats).toEqual({
        downloads: 0,
        activations: 0,
        errors: 0,
        targeted_pct: 30,
        received_pct: 0,
        adoption: 0,
        failure_rate: 0,
        eligible_devices: 0,
        running: 0,
        bytes_served: { full: 0, patch: 0, per_file: 0 },
      });
      expect(list.next_offset).toBeNull();
      expect(calls()).toEqual([3]);

      const prod = await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/apps/${ws.appId}/modules?channel=production&limit=1`,
        headers: ws.headers,
      });
      expect(prod.json().modules.map((m: { id: string }) => m.id)).toEqual([c.id]);
      expect(prod.json().next_offset).toBe(1);
      const page2 = await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/apps/${ws.appId}/modules?channel=production&limit=1&offset=1`,
        headers: ws.headers,
      });
      expect(page2.json().modules.map((m: { id: string }) => m.id)).toEqual([a.id]);
      expect(page2.json().next_offset).toBeNull();

      const one = await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/modules/${b.id}`,
        headers: ws.headers,
      });
      expect(one.json()).toMatchObject({ id: b.id, channel: 'beta', stats: { targeted_pct: 100 } });
      expect(calls()).toEqual([3, 1, 1, 1]);
    } finally {
      statsFor.mockRestore();
    }

    for (const q of ['channel=Bad!', 'limit=0', 'limit=201', 'offset=-1', 'limit=abc']) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/apps/${ws.appId}/modules?${q}`,
        headers: ws.headers,
      });
      expectProblem(res, 400, 'invalid_request');
    }
  });

  it('records API-key calls with the actor api-key', async () => {
    const ws = await workspaceWithApp(ctx);
    await setPlan(ctx, ws.workspaceId, 'pro');
    const key = await apiKey(ctx, ws, 'developer');
    const r1 = await release(ctx, ws, { version: '1' }, key);
    const r2 = await release(ctx, ws, { version: '2' }, key);
    expect((await rollout(ctx, key, r2.id, 50)).statusCode).toBe(200);
    expect((await rollback(ctx, key, r2.id)).statusCode).toBe(200);
    const entries = await audit(ctx, ws.workspaceId);
    const byKey = entries.filter((e) =>
      ['module.push', 'rollout.change', 'module.rollback'].includes(e.action),
    );
    expect(byKey.map((e) => [e.action, e.actor])).toEqual([
      ['module.push', 'api-key'],
      ['module.push', 'api-key'],
      ['rollout.change', 'api-key'],
      ['module.rollback', 'api-key'],
    ]);
    expect(r1.id).not.toBe(r2.id);
  });
});
