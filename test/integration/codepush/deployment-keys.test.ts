import { describe, expect, it } from 'vitest';
import { MAX_KEYS_PER_APP } from '../../../src/codepush/deployment-keys.service.js';
import { expectProblem, fileContext, signUp } from '../../helpers/context.js';
import { apiKey, type Headers, setPlan, workspaceWithApp } from '../releases/fixtures.js';

/** POST, GET and DELETE /apps/{app_id}/deployment-keys. */
const ctx = fileContext();

const keysUrl = (appId: string) => `/api/v1/apps/${appId}/deployment-keys`;
const create = (headers: Headers, appId: string, body: unknown) =>
  ctx.app.inject({ method: 'POST', url: keysUrl(appId), headers, payload: body as object });
const list = (headers: Headers, appId: string) =>
  ctx.app.inject({ method: 'GET', url: keysUrl(appId), headers });
const remove = (headers: Headers, appId: string, key: string) =>
  ctx.app.inject({ method: 'DELETE', url: `${keysUrl(appId)}/${key}`, headers });

describe('deployment keys', () => {
  it('are created per channel, listed oldest first, and deleted', async () => {
    const ws = await workspaceWithApp(ctx);
    await setPlan(ctx, ws.workspaceId, 'pro');
    const a = await create(ws.headers, ws.appId, { channel: 'production' });
    expect(a.statusCode, a.body).toBe(201);
    expect(a.json()).toEqual({
      key: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      channel: 'production',
      created_at: expect.stringMatching(/Z$/),
    });
    const b = await create(ws.headers, ws.appId, { channel: 'beta' });
    expect(b.statusCode, b.body).toBe(201);
    expect(b.json().key).not.toBe(a.json().key);
    const listed = await list(ws.headers, ws.appId);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({ deployment_keys: [a.json(), b.json()] });

    expect((await remove(ws.headers, ws.appId, a.json().key)).statusCode).toBe(204);
    expect((await list(ws.headers, ws.appId)).json()).toEqual({ deployment_keys: [b.json()] });
    expectProblem(await remove(ws.headers, ws.appId, a.json().key), 404, 'deployment_key_not_found');
  });

  it('a channel other than production needs a plan with channels (402 on hobby)', async () => {
    const ws = await workspaceWithApp(ctx);
    expect((await create(ws.headers, ws.appId, { channel: 'production' })).statusCode).toBe(201);
    expectProblem(await create(ws.headers, ws.appId, { channel: 'beta' }), 402, 'plan_upgrade_required');
    expect((await list(ws.headers, ws.appId)).json().deployment_keys).toHaveLength(1);
  });

  it('developers and above make and delete keys; viewers read them', async () => {
    const ws = await workspaceWithApp(ctx);
    const viewer = await apiKey(ctx, ws, 'viewer');
    const developer = await apiKey(ctx, ws, 'developer');
    expectProblem(await create(viewer, ws.appId, { channel: 'production' }), 403);
    const made = await create(developer, ws.appId, { channel: 'production' });
    expect(made.statusCode).toBe(201);
    expect((await list(viewer, ws.appId)).json().deployment_keys).toHaveLength(1);
    expectProblem(await remove(viewer, ws.appId, made.json().key), 403);
    expect((await remove(developer, ws.appId, made.json().key)).statusCode).toBe(204);
  });

  it("another workspace's app or key is unknown (404), never touched", async () => {
    const mine = await workspaceWithApp(ctx);
    const theirs = await workspaceWithApp(ctx);
    const key = (await create(theirs.headers, theirs.appId, { channel: 'production' })).json().key;
    expectProblem(await create(mine.headers, theirs.appId, { channel: 'production' }), 404, 'app_not_found');
    expectProblem(await list(mine.headers, theirs.appId), 404, 'app_not_found');
    expectProblem(await remove(mine.headers, theirs.appId, key), 404);
    expectProblem(await remove(mine.headers, mine.appId, key), 404, 'deployment_key_not_found');
    expect((await list(theirs.headers, theirs.appId)).json().deployment_keys).toHaveLength(1);
  });

  it('refuses bad input with 400, and no credential with 401', async () => {
    const ws = await workspaceWithApp(ctx);
    for (const body of [
      {},
      { channel: 'Beta' },
      { channel: '' },
      { channel: 'x'.repeat(65) },
      { channel: 1 },
    ]) {
      expectProblem(await create(ws.headers, ws.appId, body), 400);
    }
    expectProblem(await create(ws.headers, ws.appId, { channel: 'production', key: 'mine-mine-mine' }), 400);
    expectProblem(await remove(ws.headers, ws.appId, 'short'), 400);
    expectProblem(await list({}, ws.appId), 401);
    const stranger = await signUp(ctx.app);
    expectProblem(await list(stranger.headers, 'not-a-uuid'), 400);
  });

  it(`an app has at most ${MAX_KEYS_PER_APP} keys (409)`, async () => {
    const ws = await workspaceWithApp(ctx);
    for (let i = 0; i < MAX_KEYS_PER_APP; i++) {
      expect((await create(ws.headers, ws.appId, { channel: 'production' })).statusCode).toBe(201);
    }
    expectProblem(
      await create(ws.headers, ws.appId, { channel: 'production' }),
      409,
      'too_many_deployment_keys',
    );
  });
});
