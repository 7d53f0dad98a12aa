import { describe, expect, it } from 'vitest';
import { announceExpiringKeys } from '../../../src/api-keys/key-expiry.js';
import { fileContext, signUp } from '../../helpers/context.js';

const ctx = fileContext();
const DAY = 24 * 3600_000;

describe('api_key.expiring', () => {
  it('names each live key expiring within 14 days once, in a weekly upkeep task', async () => {
    const owner = await signUp(ctx.app);
    const app = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/apps',
      headers: owner.headers,
      payload: { name: 'Shop' },
    });
    const make = async (name: string, days: number | null, appIds?: string[]) => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/api/v1/workspaces/${owner.workspaceId}/api-keys`,
        headers: owner.headers,
        payload: {
          name,
          ...(days === null ? {} : { expires_at: new Date(Date.now() + days * DAY).toISOString() }),
          ...(appIds ? { app_ids: appIds } : {}),
        },
      });
      expect(res.statusCode).toBe(201);
      return res.json() as { id: string; expires_at: string };
    };
    const soon = await make('ci soon', 10, [app.json().id]);
    await make('ci later', 60);
    await make('forever', null);
    const revoked = await make('revoked soon', 5);
    await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/workspaces/${owner.workspaceId}/api-keys/${revoked.id}`,
      headers: owner.headers,
    });

    const { tasks } = ctx.deps.workers.upkeep();
    expect(tasks['api-key-expiry']?.everyMs).toBe(7 * DAY);
    await tasks['api-key-expiry']!.run();
    const events = async () =>
      (
        await ctx.deps.db.query(
          `SELECT data FROM webhook_outbox WHERE workspace_id = $1 AND event = 'api_key.expiring' ORDER BY id`,
          [owner.workspaceId],
        )
      ).rows.map((r) => r.data);
    expect(await events()).toEqual([
      { key_id: soon.id, name: 'ci soon', expires_at: soon.expires_at, app_ids: [app.json().id] },
    ]);
    // A second run names nobody again; a key entering the window later is named by the run after.
    expect(await announceExpiringKeys(ctx.deps.stores)).toBe(0);
    expect(await announceExpiringKeys(ctx.deps.stores, Date.now() + 50 * DAY)).toBe(1);
    expect((await events()).map((e) => e.name)).toEqual(['ci soon', 'ci later']);
  });
});
