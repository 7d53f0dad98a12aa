import { describe, expect, it, vi } from 'vitest';
import { invalidationChannel } from '../../../src/platform/invalidation.js';
import { createRedis } from '../../../src/platform/redis.js';
import { expectProblem, fileContext, signUp } from '../../helpers/context.js';
import { auditActions, call, everyCaller, setPlan } from './fixtures.js';

const ctx = fileContext({ env: { DEVICE_WINDOW_DAYS: '14' } });

describe('GET /workspaces/{id}', () => {
  it('answers {id, name, plan}, hobby for a new workspace', async () => {
    const owner = await signUp(ctx.app);
    const res = await call(ctx, 'GET', `/workspaces/${owner.workspaceId}`, owner.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: owner.workspaceId, name: `${owner.email}'s workspace`, plan: 'hobby' });
  });

  it('refuses another workspace with 403, a malformed id with 400 and no credential with 401', async () => {
    const a = await signUp(ctx.app);
    const b = await signUp(ctx.app);
    expectProblem(await call(ctx, 'GET', `/workspaces/${b.workspaceId}`, a.headers), 403, 'wrong_workspace');
    expectProblem(await call(ctx, 'GET', '/workspaces/nope', a.headers), 400, 'invalid_request');
    expectProblem(await call(ctx, 'GET', `/workspaces/${a.workspaceId}`, {}), 401);
  });
});

describe('PUT and PATCH /workspaces/{id}/plan', () => {
  it('changes the plan both ways, audits old and new values, and publishes a routing invalidation', async () => {
    const owner = await signUp(ctx.app);
    const subscriber = createRedis(ctx.config.redis);
    const messages: string[] = [];
    await subscriber.subscribe(invalidationChannel(ctx.deps.keys));
    subscriber.on('message', (_channel, message) => messages.push(message));
    try {
      const up = await call(ctx, 'PUT', `/workspaces/${owner.workspaceId}/plan`, owner.headers, {
        plan: 'team',
      });
      expect(up.statusCode).toBe(200);
      expect(up.json()).toEqual({ id: owner.workspaceId, plan: 'team' });
      const down = await call(ctx, 'PATCH', `/workspaces/${owner.workspaceId}/plan`, owner.headers, {
        plan: 'pro',
      });
      expect(down.json()).toEqual({ id: owner.workspaceId, plan: 'pro' });
      const read = await call(ctx, 'GET', `/workspaces/${owner.workspaceId}`, owner.headers);
      expect(read.json().plan).toBe('pro');

      const entries = await auditActions(ctx, owner.workspaceId, 'plan.change');
      expect(entries).toEqual([
        {
          actor: owner.email,
          action: 'plan.change',
          app_id: null,
          details: { old: { plan: 'hobby' }, new: { plan: 'team' } },
        },
        {
          actor: owner.email,
          action: 'plan.change',
          app_id: null,
          details: { old: { plan: 'team' }, new: { plan: 'pro' } },
        },
      ]);
      await expect.poll(() => messages.length).toBe(2);
      expect(JSON.parse(messages[0]!)).toEqual({ workspaceId: owner.workspaceId });
    } finally {
      await subscriber.quit();
    }
  });

  it('records nothing when the plan is set to the plan it already has', async () => {
    const owner = await signUp(ctx.app);
    const res = await call(ctx, 'PUT', `/workspaces/${owner.workspaceId}/plan`, owner.headers, {
      plan: 'hobby',
    });
    expect(res.json()).toEqual({ id: owner.workspaceId, plan: 'hobby' });
    expect(await auditActions(ctx, owner.workspaceId, 'plan.change')).toEqual([]);
  });

  it('refuses values other than hobby, pro and team with 400 and changes nothing', async () => {
    const owner = await signUp(ctx.app);
    const url = `/workspaces/${owner.workspaceId}/plan`;
    for (const body of [
      { plan: 'enterprise' },
      { plan: 'Team' },
      { plan: '' },
      { plan: 3 },
      { plan: null },
      {},
      { plan: 'pro', extra: 1 },
    ]) {
      expectProblem(await call(ctx, 'PUT', url, owner.headers, body), 400, 'invalid_request');
    }
    expectProblem(await call(ctx, 'PATCH', url, owner.headers, ['pro']), 400, 'invalid_request');
    expect((await call(ctx, 'GET', `/workspaces/${owner.workspaceId}`, owner.headers)).json().plan).toBe(
      'hobby',
    );
    expect(await auditActions(ctx, owner.workspaceId, 'plan.change')).toEqual([]);
  });

  it('is for the owner only: every other role and every API key gets 403, and nothing changes', async () => {
    const owner = await signUp(ctx.app);
    await setPlan(ctx, owner, 'pro');
    const { callers } = await everyCaller(ctx, owner);
    for (const [name, caller] of Object.entries(callers)) {
      if (name === 'owner') continue;
      const res = await call(ctx, 'PUT', `/workspaces/${owner.workspaceId}/plan`, caller.headers, {
        plan: 'team',
      });
      expectProblem(res, 403, 'forbidden');
    }
    expect((await auditActions(ctx, owner.workspaceId, 'plan.change')).length).toBe(1);
    const owned = await call(ctx, 'PATCH', `/workspaces/${owner.workspaceId}/plan`, owner.headers, {
      plan: 'team',
    });
    expect(owned.statusCode).toBe(200);
  });

  it("refuses a change of another workspace's plan with 403", async () => {
    const a = await signUp(ctx.app);
    const b = await signUp(ctx.app);
    const res = await call(ctx, 'PUT', `/workspaces/${b.workspaceId}/plan`, a.headers, { plan: 'team' });
    expectProblem(res, 403, 'wrong_workspace');
    expect((await call(ctx, 'GET', `/workspaces/${b.workspaceId}`, b.headers)).json().plan).toBe('hobby');
  });
});

describe('GET /workspaces/{id}/usage', () => {
  it('reports the caps of the plan in force, the members and the device window', async () => {
    const owner = await signUp(ctx.app);
    const url = `/workspaces/${owner.workspaceId}/usage`;
    const hobby = await call(ctx, 'GET', url, owner.headers);
    expect(hobby.statusCode).toBe(200);
    expect(hobby.json()).toEqual({
      plan: 'hobby',
      distinct_devices: 0,
      device_cap: 100,
      window_days: 14,
      members: 1,
      member_cap: 1,
      refused_devices: { device_cap: 0, new_device_limit: 0 },
    });
    await setPlan(ctx, owner, 'pro');
    await call(ctx, 'POST', `/workspaces/${owner.workspaceId}/members`, owner.headers, {
      email: 'pending-usage@example.com',
      role: 'viewer',
    });
    expect((await call(ctx, 'GET', url, owner.headers)).json()).toMatchObject({
      plan: 'pro',
      device_cap: 10_000,
      members: 2,
      member_cap: null,
    });
    await setPlan(ctx, owner, 'team');
    expect((await call(ctx, 'GET', url, owner.headers)).json()).toMatchObject({
      plan: 'team',
      device_cap: null,
      member_cap: null,
    });
  });

  it('asks the distinct-device counter wired into the container on an unlimited plan', async () => {
    const owner = await signUp(ctx.app);
    await setPlan(ctx, owner, 'team');
    const counter = vi
      .spyOn(ctx.deps.services.distinctDevices, 'distinctDevices')
      .mockImplementation(async (ws) => (ws === owner.workspaceId ? 42 : 0));
    try {
      const res = await call(ctx, 'GET', `/workspaces/${owner.workspaceId}/usage`, owner.headers);
      expect(res.json().distinct_devices).toBe(42);
    } finally {
      counter.mockRestore();
    }
  });

  it('reports the exact devices counted against a capped plan: those seen within the window', async () => {
    const owner = await signUp(ctx.app);
    const set = ctx.deps.keys.workspace(owner.workspaceId, 'devices:capped');
    const now = Date.now();
    const day = 86_400_000;
    const window = ctx.config.devices.windowDays;
    await ctx.deps.redis.zadd(set, now, 'a', now - day, 'b', now - (window + 1) * day, 'left-the-window');
    const res = await call(ctx, 'GET', `/workspaces/${owner.workspaceId}/usage`, owner.headers);
    expect(res.json()).toMatchObject({
      plan: 'hobby',
      distinct_devices: 2,
      device_cap: 100,
      window_days: window,
    });
  });

  it('is readable by every role and API key of the workspace, and by nobody else', async () => {
    const owner = await signUp(ctx.app);
    const stranger = await signUp(ctx.app);
    await setPlan(ctx, owner, 'pro');
    const { callers } = await everyCaller(ctx, owner);
    for (const caller of Object.values(callers)) {
      for (const url of [`/workspaces/${owner.workspaceId}`, `/workspaces/${owner.workspaceId}/usage`]) {
        const res = await call(ctx, 'GET', url, caller.headers);
        expect(res.statusCode, `${caller.label} GET ${url}`).toBe(200);
      }
    }
    for (const url of [`/workspaces/${owner.workspaceId}`, `/workspaces/${owner.workspaceId}/usage`]) {
      expectProblem(await call(ctx, 'GET', url, stranger.headers), 403, 'wrong_workspace');
    }
  });
});

describe('OpenAPI', () => {
  it('describes every route of workspaces, members and the audit log', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const paths = res.json().paths as Record<
      string,
      Record<string, { summary?: string; description?: string }>
    >;
    const expected: Array<[string, string]> = [
      ['/api/v1/workspaces/{id}', 'get'],
      ['/api/v1/workspaces/{id}/plan', 'put'],
      ['/api/v1/workspaces/{id}/plan', 'patch'],
      ['/api/v1/workspaces/{id}/usage', 'get'],
      ['/api/v1/workspaces/{id}/members', 'get'],
      ['/api/v1/workspaces/{id}/members', 'post'],
      ['/api/v1/workspaces/{id}/members/{member_id}', 'patch'],
      ['/api/v1/workspaces/{id}/members/{member_id}', 'delete'],
      ['/api/v1/audit', 'get'],
      ['/api/v1/workspaces/{id}/audit/verify', 'get'],
    ];
    for (const [path, method] of expected) {
      const op = paths[path]?.[method];
      expect(op?.summary, `${method} ${path}`).toBeTruthy();
      expect(op?.description, `${method} ${path}`).toBeTruthy();
    }
  });
});
