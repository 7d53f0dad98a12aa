import { describe, expect, it } from 'vitest';
import { expectProblem, fileContext, signUp } from '../../helpers/context.js';
import { apiKey, audit, release, setPlan, workspaceWithApp, writes } from './fixtures.js';

const ctx = fileContext();

describe('apps', () => {
  it('creates, lists (newest first) and reads apps, auditing app.create', async () => {
    const owner = await signUp(ctx.app);
    const made: string[] = [];
    for (const name of ['First', 'Second']) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/apps',
        headers: owner.headers,
        payload: { name },
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ name, workspace_id: owner.workspaceId });
      expect(res.json().created_at).toMatch(/Z$/);
      made.push(res.json().id);
    }
    const list = await ctx.app.inject({ method: 'GET', url: '/api/v1/apps', headers: owner.headers });
    expect(list.json().apps.map((a: { id: string }) => a.id)).toEqual([made[1], made[0]]);

    const one = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/apps/${made[0]}`,
      headers: owner.headers,
    });
    expect(one.json()).toEqual({
      id: made[0],
      name: 'First',
      workspace_id: owner.workspaceId,
      created_at: expect.any(String),
      channels: ['production'],
      fingerprints: [],
    });
    const created = await audit(ctx, owner.workspaceId, 'app.create');
    expect(created.map((e) => [e.actor, e.app_id, e.details.name])).toEqual([
      [owner.email, made[0], 'First'],
      [owner.email, made[1], 'Second'],
    ]);
  });

  it('shows production always and every channel that has releases', async () => {
    const ws = await workspaceWithApp(ctx);
    await setPlan(ctx, ws.workspaceId, 'pro');
    await release(ctx, ws, { channel: 'staging' });
    await release(ctx, ws, { channel: 'canary' });
    await release(ctx, ws, { channel: 'canary' });
    const one = await ctx.app.inject({ method: 'GET', url: `/api/v1/apps/${ws.appId}`, headers: ws.headers });
    expect(one.json().channels).toEqual(['production', 'canary', 'staging']);
  });

  it('refuses bad names', async () => {
    const owner = await signUp(ctx.app);
    for (const payload of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(101) },
      { name: 5 },
      { name: 'a\u0000b' },
    ]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/apps',
        headers: owner.headers,
        payload,
      });
      // A NUL is refused before the schema, as a string no store can take, naming the field.
      const nul = typeof payload.name === 'string' && payload.name.includes('\u0000');
      expectProblem(res, 400, nul ? 'invalid_string' : 'invalid_request');
    }
    expect((await audit(ctx, owner.workspaceId, 'app.create')).length).toBe(0);
  });

  it('records an app made with an API key under the actor api-key', async () => {
    const owner = await signUp(ctx.app);
    const key = await apiKey(ctx, owner, 'admin');
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/apps',
      headers: key,
      payload: { name: 'CI' },
    });
    expect(res.statusCode).toBe(201);
    expect((await audit(ctx, owner.workspaceId, 'app.create'))[0]!.actor).toBe('api-key');
  });
});

describe('fingerprints', () => {
  it('registers idempotently: one row, one audit entry, the same answer', async () => {
    const ws = await workspaceWithApp(ctx);
    const key = await apiKey(ctx, ws, 'developer');
    const register = (fingerprint: string, headers: Record<string, string> = key) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/v1/apps/${ws.appId}/fingerprints`,
        headers,
        payload: { fingerprint },
      });
    const first = await register('ios-2.3.1+45');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toEqual({ fingerprint: 'ios-2.3.1+45', created_at: expect.any(String) });
    const again = await register('ios-2.3.1+45', ws.headers);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    await register('android-77');

    const entries = await audit(ctx, ws.workspaceId, 'fingerprint.register');
    // The key is named in each entry made with it (details.api_key), beside the actor `api-key`.
    const byKey = {
      id: expect.any(String),
      name: 'developer key',
      created_by: { id: ws.userId, email: ws.email },
    };
    expect(entries.map((e) => [e.actor, e.app_id, e.details])).toEqual([
      ['api-key', ws.appId, { fingerprint: 'ios-2.3.1+45', api_key: byKey }],
      ['api-key', ws.appId, { fingerprint: 'android-77', api_key: byKey }],
    ]);
    const app = await ctx.app.inject({ method: 'GET', url: `/api/v1/apps/${ws.appId}`, headers: ws.headers });
    expect(app.json().fingerprints.map((f: { fingerprint: string }) => f.fingerprint)).toEqual([
      'ios-2.3.1+45',
      'android-77',
    ]);

    const before = await writes(ctx, ws.workspaceId);
    for (const fingerprint of ['', 'has space', 'x'.repeat(129), 42, null]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/api/v1/apps/${ws.appId}/fingerprints`,
        headers: key,
        payload: { fingerprint },
      });
      expectProblem(res, 400, 'invalid_request');
    }
    expect(await writes(ctx, ws.workspaceId)).toEqual(before);
  });
});
