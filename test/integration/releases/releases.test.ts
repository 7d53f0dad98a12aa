import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, expectProblem, type TestContext } from '../../helpers/context.js';
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

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

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
      version: 'v2 beta',
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

describe('rollout', () => {
  it('changes in place by PUT and PATCH, audits old/new, writes rollout.changed once per change', async () => {
    const ws = await workspaceWithApp(ctx, 'Rollout app');
    await setPlan(ctx, ws.workspaceId, 'pro');
    const r = await release(ctx, ws, { rollout_pct: 5, version: '3.1.0' });

    const up = await rollout(ctx, ws.headers, r.id, 25);
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json()).toMatchObject({ id: r.id, rollout_pct: 25, active: true });
    const down = await rollout(ctx, ws.headers, r.id, 10, 'PATCH');
    expect(down.json().rollout_pct).toBe(10);
    const same = await rollout(ctx, ws.headers, r.id, 10);
    expect(same.statusCode).toBe(200);

    const changes = await audit(ctx, ws.workspaceId, 'rollout.change');
    expect(changes.map((c) => c.details)).toEqual([
      {
        module_id: r.id,
        version: '3.1.0',
        channel: 'production',
        old: { rollout_pct: 5 },
        new: { rollout_pct: 25 },
      },
      {
        module_id: r.id,
        version: '3.1.0',
        channel: 'production',
        old: { rollout_pct: 25 },
        new: { rollout_pct: 10 },
      },
    ]);
    const events = (await outbox(ctx, ws.workspaceId)).filter((e) => e.event === 'rollout.changed');
    expect(events.map((e) => e.data)).toEqual([
      {
        app_id: ws.appId,
        app_name: 'Rollout app',
        module_id: r.id,
        version: '3.1.0',
        channel: 'production',
        old_rollout_pct: 5,
        rollout_pct: 25,
      },
      {
        app_id: ws.appId,
        app_name: 'Rollout app',
        module_id: r.id,
        version: '3.1.0',
        channel: 'production',
        old_rollout_pct: 25,
        rollout_pct: 10,
      },
    ]);
  });

  it('refuses out-of-range values and a rolled-back release, writing nothing', async () => {
    const ws = await workspaceWithApp(ctx);
    await setPlan(ctx, ws.workspaceId, 'pro');
    await release(ctx, ws);
    const r = await release(ctx, ws, { version: '2' });
    const before = await writes(ctx, ws.workspaceId);
    for (const pct of [-0.5, 100.1, '50', null, true]) {
      expectProblem(await rollout(ctx, ws.headers, r.id, pct), 400, 'invalid_request');
    }
    const noBody = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/modules/${r.id}/rollout`,
      headers: ws.headers,
      payload: {},
    });
    expectProblem(noBody, 400, 'invalid_request');
    expect(await writes(ctx, ws.workspaceId)).toEqual(before);

    expect((await rollback(ctx, ws.headers, r.id)).statusCode).toBe(200);
    const afterRollback = await writes(ctx, ws.workspaceId);
    expectProblem(await rollout(ctx, ws.headers, r.id, 50), 409, 'release_inactive');
    expect(await writes(ctx, ws.workspaceId)).toEqual(afterRollback);
  });
});

describe('rollback', () => {
  it('rolls back a release that is not the newest, twice in a row, and refuses when nothing is left', async () => {
    const ws = await workspaceWithApp(ctx, 'Rollback app');
    await setPlan(ctx, ws.workspaceId, 'pro');
    const r1 = await release(ctx, ws, { version: '1' });
    const r2 = await release(ctx, ws, { version: '2', rollout_pct: 40 });
    const r3 = await release(ctx, ws, { version: '3', rollout_pct: 10 });
    await release(ctx, ws, { version: 'canary-1', channel: 'canary' });

    // Not the newest: r2 goes, r1 is what devices fall through to; r3 stays in force above it.
    const middle = await rollback(ctx, ws.headers, r2.id);
    expect(middle.statusCode, middle.body).toBe(200);
    const body = middle.json();
    expect(body.rolled_back).toMatchObject({ id: r2.id, active: false, rollout_pct: 40 });
    expect(body.rolled_back.rolled_back_at).toEqual(expect.any(String));
    expect(body.active).toMatchObject({ id: r1.id, active: true, rollout_pct: 100 });
    const newest = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/modules/${r3.id}`,
      headers: ws.headers,
    });
    expect(newest.json()).toMatchObject({ active: true, rollout_pct: 10 });

    // The same release again: it is no longer active.
    expectProblem(await rollback(ctx, ws.headers, r2.id), 409, 'release_inactive');

    // The newest now falls back past the rolled-back r2 to r1.
    const top = await rollback(ctx, ws.headers, r3.id);
    expect(top.statusCode).toBe(200);
    expect(top.json().active.id).toBe(r1.id);

    // r1 has no earlier active release on production (the canary release does not count).
    expectProblem(await rollback(ctx, ws.headers, r1.id), 409, 'no_previous_release');

    const rollbacks = (await outbox(ctx, ws.workspaceId)).filter((e) => e.event === 'rollback');
    expect(rollbacks.map((e) => e.data)).toEqual([
      {
        app_id: ws.appId,
        app_name: 'Rollback app',
        channel: 'production',
        rolled_back: { module_id: r2.id, version: '2' },
        active: { module_id: r1.id, version: '1' },
      },
      {
        app_id: ws.appId,
        app_name: 'Rollback app',
        channel: 'production',
        rolled_back: { module_id: r3.id, version: '3' },
        active: { module_id: r1.id, version: '1' },
      },
    ]);
    const entries = await audit(ctx, ws.workspaceId, 'module.rollback');
    expect(entries).toHaveLength(2);
    expect(entries[0]!.details).toMatchObject({
      channel: 'production',
      rolled_back: { module_id: r2.id, version: '2' },
      active: { module_id: r1.id, version: '1' },
    });
    expect(await outbox(ctx, ws.workspaceId)).toHaveLength(4 + 2);
  });

  it('refuses the only release of a channel with 409 and writes nothing', async () => {
    const ws = await workspaceWithApp(ctx);
    const only = await release(ctx, ws);
    const before = await writes(ctx, ws.workspaceId);
    expectProblem(await rollback(ctx, ws.headers, only.id), 409, 'no_previous_release');
    expect(await writes(ctx, ws.workspaceId)).toEqual(before);
    const still = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/modules/${only.id}`,
      headers: ws.headers,
    });
    expect(still.json().active).toBe(true);
  });

  it('takes concurrent rollbacks on one channel one after the other', async () => {
    const ws = await workspaceWithApp(ctx);
    const r1 = await release(ctx, ws, { version: '1' });
    const r2 = await release(ctx, ws, { version: '2' });
    const r3 = await release(ctx, ws, { version: '3' });
    const [a, b] = await Promise.all([rollback(ctx, ws.headers, r2.id), rollback(ctx, ws.headers, r3.id)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const { rows } = await ctx.deps.db.query<{ id: string }>(
      'SELECT id FROM releases WHERE app_id = $1 AND active',
      [ws.appId],
    );
    expect(rows.map((r) => r.id)).toEqual([r1.id]);
    expect((await outbox(ctx, ws.workspaceId)).filter((e) => e.event === 'rollback')).toHaveLength(2);
  });
});

describe('reads', () => {
  it('lists newest first with stats, filters by channel, pages, and asks for stats once per page', async () => {
    const ws = await workspaceWithApp(ctx);
    await setPlan(ctx, ws.workspaceId, 'team');
    const a = await release(ctx, ws, { version: 'a' });
    const b = await release(ctx, ws, { version: 'b', channel: 'beta' });
    const c = await release(ctx, ws, { version: 'c', rollout_pct: 30 });

    const calls: number[] = [];
    const original = ctx.deps.services.releaseStats;
    ctx.deps.services.releaseStats = {
      async statsFor(refs) {
        calls.push(refs.length);
        return original.statsFor(refs);
      },
    };
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
      });
      expect(list.next_offset).toBeNull();
      expect(calls).toEqual([3]);

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
      expect(calls).toEqual([3, 1, 1, 1]);
    } finally {
      ctx.deps.services.releaseStats = original;
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
