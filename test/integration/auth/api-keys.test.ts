import { describe, expect, it } from 'vitest';
import { expectProblem, fileContext, signUp } from '../../helpers/context.js';

const ctx = fileContext();

describe('API keys', () => {
  it('creates a key shown once, authenticates with it, lists it without the secret, and revokes it at once', async () => {
    const owner = await signUp(ctx.app);
    const created = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${owner.workspaceId}/api-keys`,
      headers: owner.headers,
      payload: { name: 'ci machine', role: 'developer' },
    });
    expect(created.statusCode).toBe(201);
    const key = created.json();
    expect(key).toMatchObject({ name: 'ci machine', role: 'developer' });
    expect(key.key).toMatch(/^ota_/);

    const me = await ctx.app.inject({ method: 'GET', url: '/api/v1/me', headers: { 'x-api-key': key.key } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ user: null, workspace_id: owner.workspaceId, role: 'developer' });

    const list = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/workspaces/${owner.workspaceId}/api-keys`,
      headers: owner.headers,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().api_keys).toHaveLength(1);
    expect(list.body).not.toContain(key.key);
    const stored = await ctx.deps.db.query('SELECT key_hash FROM api_keys WHERE id = $1', [key.id]);
    expect(stored.rows[0].key_hash).not.toBe(key.key);

    const revoked = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/workspaces/${owner.workspaceId}/api-keys/${key.id}`,
      headers: owner.headers,
    });
    expect(revoked.statusCode).toBe(204);
    const after = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/me',
      headers: { 'x-api-key': key.key },
    });
    expectProblem(after, 401, 'invalid_api_key');
    const again = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/workspaces/${owner.workspaceId}/api-keys/${key.id}`,
      headers: owner.headers,
    });
    expectProblem(again, 404);
  });

  it('defaults the role to admin, and refuses keys for another workspace or from a low role', async () => {
    const owner = await signUp(ctx.app);
    const other = await signUp(ctx.app);
    const created = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${owner.workspaceId}/api-keys`,
      headers: owner.headers,
      payload: { name: 'default role' },
    });
    expect(created.json().role).toBe('admin');

    const cross = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${other.workspaceId}/api-keys`,
      headers: owner.headers,
      payload: { name: 'x' },
    });
    expectProblem(cross, 403, 'wrong_workspace');

    const viewerKey = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${owner.workspaceId}/api-keys`,
      headers: owner.headers,
      payload: { name: 'viewer', role: 'viewer' },
    });
    const byViewer = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${owner.workspaceId}/api-keys`,
      headers: { 'x-api-key': viewerKey.json().key },
      payload: { name: 'escalate' },
    });
    expectProblem(byViewer, 403, 'forbidden');

    const ownerRole = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${owner.workspaceId}/api-keys`,
      headers: owner.headers,
      payload: { name: 'owner key', role: 'owner' },
    });
    expectProblem(ownerRole, 400, 'invalid_request');
  });

  it('refuses unknown and malformed keys with 401', async () => {
    for (const key of ['ota_unknownkeyvalue', 'garbage', 'ota_' + 'x'.repeat(200)]) {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/me', headers: { 'x-api-key': key } });
      expectProblem(res, 401, 'invalid_api_key');
    }
  });
});
