import { describe, expect, it } from 'vitest';
import { expectProblem, fileContext } from '../../helpers/context.js';
import { audit, outbox, release, rollback, rollout, setPlan, workspaceWithApp, writes } from './fixtures.js';

const ctx = fileContext();

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
        paused: false,
      },
      {
        app_id: ws.appId,
        app_name: 'Rollout app',
        module_id: r.id,
        version: '3.1.0',
        channel: 'production',
        old_rollout_pct: 25,
        rollout_pct: 10,
        paused: false,
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
