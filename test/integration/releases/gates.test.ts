import { describe, expect, it } from 'vitest';
import { expectProblem, fileContext } from '../../helpers/context.js';
import {
  apiKey,
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

const PAID_PUSHES: Array<[string, Record<string, unknown>]> = [
  ['a staged rollout', { rollout_pct: 50 }],
  ['a rollout of 0', { rollout_pct: 0 }],
  ['a rollout of 99.9', { rollout_pct: 99.9 }],
  ['another channel', { channel: 'canary' }],
  ['another channel at 100 explicitly', { channel: 'beta', rollout_pct: 100 }],
];

describe('plan gates on hobby (402 with an upgrade message)', () => {
  it.each(PAID_PUSHES)('refuses a push with %s and writes nothing', async (_name, extra) => {
    const ws = await workspaceWithApp(ctx);
    const sha256 = await bundle(ctx, ws.headers, ws.appId);
    const before = await writes(ctx, ws.workspaceId);
    const res = await push(ctx, ws.headers, { app_id: ws.appId, version: '1', sha256, ...extra });
    const problem = expectProblem(res, 402, 'plan_upgrade_required');
    expect(problem.detail).toMatch(/Startup \(pro\) plan or higher.*Upgrade with `ota plan set pro`/);
    expect(problem).toMatchObject({ plan: 'hobby', required_plan: 'pro' });
    expect(await writes(ctx, ws.workspaceId)).toEqual(before);
  });

  it('refuses every rollout change, by PUT and PATCH, even to 100, from a user or an API key', async () => {
    const ws = await workspaceWithApp(ctx);
    const key = await apiKey(ctx, ws, 'developer');
    const r = await release(ctx, ws);
    const before = await writes(ctx, ws.workspaceId);
    for (const [pct, method] of [
      [50, 'PUT'],
      [100, 'PUT'],
      [0, 'PATCH'],
      [100, 'PATCH'],
    ] as const) {
      expectProblem(await rollout(ctx, ws.headers, r.id, pct, method), 402, 'plan_upgrade_required');
      expectProblem(await rollout(ctx, key, r.id, pct, method), 402, 'plan_upgrade_required');
    }
    expect(await writes(ctx, ws.workspaceId)).toEqual(before);
  });

  it('allows a full production push and rollback, which every plan has', async () => {
    const ws = await workspaceWithApp(ctx);
    const r1 = await release(ctx, ws, { version: '1' });
    const r2 = await release(ctx, ws, { version: '2', channel: 'production', rollout_pct: 100 });
    const res = await rollback(ctx, ws.headers, r2.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().active.id).toBe(r1.id);
  });
});

describe.each(['pro', 'team'] as const)('no gates on %s', (plan) => {
  it('allows staged pushes, other channels and rollout changes', async () => {
    const ws = await workspaceWithApp(ctx);
    await setPlan(ctx, ws.workspaceId, plan);
    for (const [, extra] of PAID_PUSHES) await release(ctx, ws, extra);
    const r = await release(ctx, ws, { channel: 'canary', rollout_pct: 5 });
    for (const [pct, method] of [
      [50, 'PUT'],
      [100, 'PATCH'],
    ] as const) {
      const res = await rollout(ctx, ws.headers, r.id, pct, method);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().rollout_pct).toBe(pct);
    }
    const events = (await outbox(ctx, ws.workspaceId)).map((e) => e.event);
    expect(events.filter((e) => e === 'release.pushed')).toHaveLength(PAID_PUSHES.length + 1);
    expect(events.filter((e) => e === 'rollout.changed')).toHaveLength(2);
  });
});

it('applies the plan in force at the time of the call (downgrade closes the gate again)', async () => {
  const ws = await workspaceWithApp(ctx);
  await setPlan(ctx, ws.workspaceId, 'pro');
  const r = await release(ctx, ws, { rollout_pct: 20 });
  await setPlan(ctx, ws.workspaceId, 'hobby');
  expectProblem(await rollout(ctx, ws.headers, r.id, 30), 402, 'plan_upgrade_required');
});
