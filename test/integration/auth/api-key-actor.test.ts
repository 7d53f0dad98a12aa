import { describe, expect, it } from 'vitest';
import { fileContext, signUp } from '../../helpers/context.js';

/** The spec's actor `api-key` stays; the entry also says which key made the change, and whose it is. */
const ctx = fileContext();

describe('audit entries made with an API key', () => {
  it('keep the actor api-key and add details.api_key {id, name, created_by}', async () => {
    const owner = await signUp(ctx.app);
    const made = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${owner.workspaceId}/api-keys`,
      headers: owner.headers,
      payload: { name: 'CI deploys', role: 'developer' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const key = made.json() as { id: string; key: string };
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/apps',
      headers: { 'x-api-key': key.key },
      payload: { name: 'Keyed app' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const byUser = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/apps',
      headers: owner.headers,
      payload: { name: 'Hand-made app' },
    });
    expect(byUser.statusCode, byUser.body).toBe(201);
    const { rows } = await ctx.deps.db.query<{ actor: string; details: Record<string, unknown> }>(
      `SELECT actor, details FROM audit_log WHERE workspace_id = $1 AND action = 'app.create' ORDER BY seq`,
      [owner.workspaceId],
    );
    expect(rows[0]).toMatchObject({
      actor: 'api-key',
      details: {
        name: 'Keyed app',
        api_key: { id: key.id, name: 'CI deploys', created_by: { id: owner.userId, email: owner.email } },
      },
    });
    expect(rows[1]!.actor).toBe(owner.email);
    expect(rows[1]!.details).not.toHaveProperty('api_key');
  });
});
