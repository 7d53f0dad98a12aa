import { beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, fileContext, type SignedIn, signUp } from '../../helpers/context.js';
import { insertApp } from './fixtures.js';

let owner: SignedIn;
let appId: string;
const ctx = fileContext();
beforeAll(async () => {
  owner = await signUp(ctx.app);
  appId = await insertApp(ctx.deps.db, owner.workspaceId);
});

async function keyWithRole(role: 'developer' | 'viewer') {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/v1/workspaces/${owner.workspaceId}/api-keys`,
    headers: owner.headers,
    payload: { name: role, role },
  });
  return { 'x-api-key': res.json().key as string };
}

describe('alert settings', () => {
  it('shows the defaults, then keeps a partial update', async () => {
    const url = `/api/v1/apps/${appId}/alerts`;
    const first = await ctx.app.inject({ method: 'GET', url, headers: owner.headers });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      threshold: 0.05,
      window_minutes: 15,
      min_sample: 50,
      min_networks: 5,
      cooldown_minutes: 60,
      action: 'none',
    });

    const put = await ctx.app.inject({
      method: 'PUT',
      url,
      headers: owner.headers,
      payload: { threshold: 0.1, min_sample: 200, min_networks: 1 },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({
      threshold: 0.1,
      window_minutes: 15,
      min_sample: 200,
      min_networks: 1,
      cooldown_minutes: 60,
      action: 'none',
    });
    const second = await ctx.app.inject({
      method: 'PUT',
      url,
      headers: owner.headers,
      payload: { window_minutes: 5 },
    });
    expect(second.json()).toMatchObject({ threshold: 0.1, window_minutes: 5, min_sample: 200 });
    expect((await ctx.app.inject({ method: 'GET', url, headers: owner.headers })).json()).toEqual(
      second.json(),
    );
  });

  it('refuses bad values with 400', async () => {
    const url = `/api/v1/apps/${appId}/alerts`;
    for (const payload of [
      { threshold: 0 },
      { threshold: 1.5 },
      { threshold: '0.1' },
      { window_minutes: 0 },
      { window_minutes: 1441 },
      { window_minutes: 2.5 },
      { min_sample: 0 },
      { min_networks: 0 },
      { min_networks: 1001 },
      { min_networks: 2.5 },
      { cooldown_minutes: -1 },
      { action: 'explode' },
      { colour: 'red' },
    ]) {
      expectProblem(await ctx.app.inject({ method: 'PUT', url, headers: owner.headers, payload }), 400);
    }
    expectProblem(
      await ctx.app.inject({ method: 'GET', url: '/api/v1/apps/not-a-uuid/alerts', headers: owner.headers }),
      400,
    );
  });

  it('lets any role read and developers write; other workspaces see no such app', async () => {
    const url = `/api/v1/apps/${appId}/alerts`;
    const viewer = await keyWithRole('viewer');
    const developer = await keyWithRole('developer');
    expect((await ctx.app.inject({ method: 'GET', url, headers: viewer })).statusCode).toBe(200);
    expectProblem(
      await ctx.app.inject({ method: 'PUT', url, headers: viewer, payload: { threshold: 0.2 } }),
      403,
    );
    expect(
      (await ctx.app.inject({ method: 'PUT', url, headers: developer, payload: { threshold: 0.2 } }))
        .statusCode,
    ).toBe(200);

    const other = await signUp(ctx.app);
    expectProblem(await ctx.app.inject({ method: 'GET', url, headers: other.headers }), 404);
    expectProblem(
      await ctx.app.inject({ method: 'PUT', url, headers: other.headers, payload: { threshold: 0.3 } }),
      404,
    );
    const unknown = '/api/v1/apps/00000000-0000-4000-8000-000000000000/alerts';
    expectProblem(await ctx.app.inject({ method: 'GET', url: unknown, headers: owner.headers }), 404);
    expectProblem(await ctx.app.inject({ method: 'GET', url }), 401);
  });

  it('takes the pause and rollback actions on every plan, hobby included', async () => {
    const url = `/api/v1/apps/${appId}/alerts`;
    for (const action of ['pause', 'rollback']) {
      const res = await ctx.app.inject({ method: 'PUT', url, headers: owner.headers, payload: { action } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().action).toBe(action);
    }
  });
});
