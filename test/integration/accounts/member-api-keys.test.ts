import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../../../src/api-keys/api-key-secret.js';
import { expectProblem, fileContext, type SignedIn, signUp } from '../../helpers/context.js';
import { addMember, auditActions, call, type Headers, setPlan, type Teammate } from '../members/fixtures.js';

const ctx = fileContext();

const keysUrl = (ws: string) => `/workspaces/${ws}/api-keys`;

async function team(): Promise<{ owner: SignedIn; admin: Teammate }> {
  const owner = await signUp(ctx.app);
  await setPlan(ctx, owner, 'pro');
  return { owner, admin: await addMember(ctx, owner, 'admin') };
}

async function createKey(
  ws: string,
  headers: Headers,
  role: 'admin' | 'developer' | 'viewer' = 'admin',
): Promise<{ id: string; headers: Headers }> {
  const res = await call(ctx, 'POST', keysUrl(ws), headers, { name: `${role} key`, role });
  if (res.statusCode !== 201) throw new Error(`key: ${res.statusCode} ${res.body}`);
  return { id: res.json().id, headers: { 'x-api-key': res.json().key } };
}

/** What the key may do: list apps (viewer), create an app (developer), list keys (admin). */
async function reach(headers: Headers): Promise<number[]> {
  const ws = (await call(ctx, 'GET', '/me', headers)).json().workspace_id;
  return [
    (await call(ctx, 'GET', '/apps', headers)).statusCode,
    (await call(ctx, 'POST', '/apps', headers, { name: `app-${Math.random()}` })).statusCode,
    (await call(ctx, 'GET', keysUrl(ws ?? 'x'), headers)).statusCode,
  ];
}

describe('API keys die with the member who made them', () => {
  it('removing an admin revokes its keys (also those made with them), in the removal, audited', async () => {
    const { owner, admin } = await team();
    const made = await createKey(owner.workspaceId, admin.headers);
    // A key made with that key belongs to the same person.
    const grandchild = await createKey(owner.workspaceId, made.headers, 'developer');
    const ownersKey = await createKey(owner.workspaceId, owner.headers);
    expect(await reach(made.headers)).toEqual([200, 201, 200]);

    const removed = await call(
      ctx,
      'DELETE',
      `/workspaces/${owner.workspaceId}/members/${admin.memberId}`,
      owner.headers,
    );
    expect(removed.statusCode).toBe(204);
    for (const key of [made, grandchild]) {
      expectProblem(await call(ctx, 'GET', '/apps', key.headers), 401, 'invalid_api_key');
    }
    expect(await reach(ownersKey.headers)).toEqual([200, 201, 200]);
    const listed = (await call(ctx, 'GET', keysUrl(owner.workspaceId), owner.headers)).json().api_keys;
    expect(listed.map((k: { id: string }) => k.id)).toEqual([ownersKey.id]);
    const [entry] = await auditActions(ctx, owner.workspaceId, 'member.remove');
    expect(entry!.details).toEqual({
      member_id: admin.memberId,
      email: admin.email,
      old: { role: 'admin', status: 'active' },
      revoked_api_keys: [made.id, grandchild.id].sort(),
    });
  });

  it('lists who made each key: {id, email} of the member, also for a key made with a key', async () => {
    const { owner, admin } = await team();
    const byOwner = await createKey(owner.workspaceId, owner.headers);
    const byAdmin = await createKey(owner.workspaceId, admin.headers, 'developer');
    const byKey = await createKey(owner.workspaceId, byAdmin.headers, 'viewer').catch(() => undefined);
    // A developer key cannot make keys; an admin key made by the admin can.
    expect(byKey).toBeUndefined();
    const adminKey = await createKey(owner.workspaceId, admin.headers, 'admin');
    const viaKey = await createKey(owner.workspaceId, adminKey.headers, 'viewer');
    const listed = (await call(ctx, 'GET', keysUrl(owner.workspaceId), owner.headers)).json()
      .api_keys as Array<{
      id: string;
      created_by: { id: string; email: string } | null;
    }>;
    const creator = (id: string) => listed.find((k) => k.id === id)?.created_by;
    expect(creator(byOwner.id)).toEqual({ id: owner.userId, email: owner.email });
    expect(creator(byAdmin.id)).toEqual({ id: admin.userId, email: admin.email });
    expect(creator(adminKey.id)).toEqual({ id: admin.userId, email: admin.email });
    expect(creator(viaKey.id)).toEqual({ id: admin.userId, email: admin.email });
  });

  it('a role change caps the member’s keys at the new role, and a promotion does not lift them', async () => {
    const { owner, admin } = await team();
    const adminKey = await createKey(owner.workspaceId, admin.headers, 'admin');
    const developerKey = await createKey(owner.workspaceId, admin.headers, 'developer');
    const viewerKey = await createKey(owner.workspaceId, admin.headers, 'viewer');
    const memberUrl = `/workspaces/${owner.workspaceId}/members/${admin.memberId}`;

    await call(ctx, 'PATCH', memberUrl, owner.headers, { role: 'developer' });
    expect(await reach(adminKey.headers)).toEqual([200, 201, 403]);
    expect(await reach(developerKey.headers)).toEqual([200, 201, 403]);
    await call(ctx, 'PATCH', memberUrl, owner.headers, { role: 'viewer' });
    for (const key of [adminKey, developerKey, viewerKey])
      expect(await reach(key.headers)).toEqual([200, 403, 403]);
    await call(ctx, 'PATCH', memberUrl, owner.headers, { role: 'admin' });
    expect(await reach(adminKey.headers)).toEqual([200, 403, 403]);

    const roles = (await call(ctx, 'GET', keysUrl(owner.workspaceId), owner.headers))
      .json()
      .api_keys.map(
        (k: { id: string; role: string }) => `${k.id === adminKey.id ? 'was admin' : k.role}:${k.role}`,
      );
    expect(roles).toContain('was admin:viewer');
    const changes = await auditActions(ctx, owner.workspaceId, 'member.role_change');
    expect(changes.map((e) => e.details)).toEqual([
      expect.objectContaining({ new: { role: 'developer' }, capped_api_keys: [adminKey.id] }),
      expect.objectContaining({
        new: { role: 'viewer' },
        capped_api_keys: [adminKey.id, developerKey.id].sort(),
      }),
      expect.objectContaining({ new: { role: 'admin' }, capped_api_keys: [] }),
    ]);
  });

  it('a key being made while its maker is removed is refused, never left alive', async () => {
    const { owner, admin } = await team();
    // The removal holds the member's row (as DELETE does) while the admin asks for a key.
    const removal = await ctx.deps.db.connect();
    try {
      await removal.query('BEGIN');
      await removal.query('SELECT 1 FROM members WHERE id = $1 FOR UPDATE', [admin.memberId]);
      const asking = call(ctx, 'POST', keysUrl(owner.workspaceId), admin.headers, { name: 'racing' });
      await expect
        .poll(async () => {
          const { rows } = await ctx.deps.db.query(
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
          );
          return rows[0].n;
        })
        .toBe(1);
      await removal.query('DELETE FROM members WHERE id = $1', [admin.memberId]);
      await removal.query('COMMIT');
      const res = await asking;
      expectProblem(res, 401, 'membership_revoked');
    } finally {
      removal.release();
    }
    const { rows } = await ctx.deps.db.query(
      'SELECT count(*)::int AS n FROM api_keys WHERE workspace_id = $1 AND revoked_at IS NULL',
      [owner.workspaceId],
    );
    expect(rows[0].n).toBe(0);
  });

  it('a key written behind the service’s back still acts at most as its maker, and not without one', async () => {
    const { owner, admin } = await team();
    const viewer = await addMember(ctx, owner, 'viewer');
    const outsider = await signUp(ctx.app);
    const raw = async (createdBy: string) => {
      const { key, hash } = generateApiKey();
      await ctx.ownerDb.query(
        `INSERT INTO api_keys (workspace_id, name, role, key_hash, created_by) VALUES ($1, 'raw', 'admin', $2, $3)`,
        [owner.workspaceId, hash, createdBy],
      );
      return { 'x-api-key': key };
    };
    expect(await reach(await raw(admin.userId))).toEqual([200, 201, 200]);
    expect(await reach(await raw(viewer.userId))).toEqual([200, 403, 403]);
    expectProblem(await call(ctx, 'GET', '/apps', await raw(outsider.userId)), 401, 'invalid_api_key');
  });
});
