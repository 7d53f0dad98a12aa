import { describe, expect, it } from 'vitest';
import { IdentityTokens } from '../../../src/auth/identity-tokens.js';
import {
  expectProblem,
  fileContext,
  signUp,
  TEST_TOKEN_SECRET,
  tokenSubjectOf,
} from '../../helpers/context.js';

const ctx = fileContext();

async function auditActions(workspaceId: string): Promise<string[]> {
  const { rows } = await ctx.deps.db.query<{ action: string; actor: string }>(
    'SELECT action, actor FROM audit_log WHERE workspace_id = $1 ORDER BY seq',
    [workspaceId],
  );
  return rows.map((r) => `${r.action}:${r.actor}`);
}

describe('POST /api/v1/auth/signin', () => {
  it('creates the account and a hobby personal workspace on the first sign-in, audited', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/signin',
      payload: { email: 'First@Example.com', password: 'password-one' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.created).toBe(true);
    expect(body.user.email).toBe('first@example.com');
    expect(typeof body.token).toBe('string');
    const ws = await ctx.deps.db.query('SELECT plan, owner_id FROM workspaces WHERE id = $1', [
      body.workspace_id,
    ]);
    expect(ws.rows[0]).toEqual({ plan: 'hobby', owner_id: body.user.id });
    const member = await ctx.deps.db.query(
      'SELECT role FROM members WHERE workspace_id = $1 AND user_id = $2',
      [body.workspace_id, body.user.id],
    );
    expect(member.rows[0]?.role).toBe('owner');
    expect(await auditActions(body.workspace_id)).toEqual([
      'account.create:first@example.com',
      'login:first@example.com',
    ]);
  });

  it('signs in again with the same password into the same workspace, recording login only', async () => {
    const first = await signUp(ctx.app, 'again@example.com', 'password-two');
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/signin',
      payload: { email: 'again@example.com', password: 'password-two' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().created).toBe(false);
    expect(res.json().workspace_id).toBe(first.workspaceId);
    expect(await auditActions(first.workspaceId)).toEqual([
      'account.create:again@example.com',
      'login:again@example.com',
      'login:again@example.com',
    ]);
  });

  it('refuses a wrong password with 401 and records nothing', async () => {
    const user = await signUp(ctx.app, 'wrong@example.com', 'password-three');
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/signin',
      payload: { email: 'wrong@example.com', password: 'not-the-password' },
    });
    expectProblem(res, 401, 'invalid_credentials');
    expect(await auditActions(user.workspaceId)).toHaveLength(2);
  });

  it('stores only a scrypt hash of the password', async () => {
    await signUp(ctx.app, 'hash@example.com', 'password-four');
    const { rows } = await ctx.deps.db.query('SELECT password_hash FROM users WHERE email = $1', [
      'hash@example.com',
    ]);
    expect(rows[0].password_hash).toMatch(/^scrypt\$/);
    expect(rows[0].password_hash).not.toContain('password-four');
  });

  it('creates one account when two first sign-ins race', async () => {
    const payload = { email: 'race@example.com', password: 'password-five' };
    const results = await Promise.all(
      [1, 2, 3].map(() => ctx.app.inject({ method: 'POST', url: '/api/v1/auth/signin', payload })),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(results.filter((r) => r.json().created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.json().workspace_id)).size).toBe(1);
  });
});

describe('identity tokens', () => {
  it('authenticates /me with the token', async () => {
    const user = await signUp(ctx.app);
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/me', headers: user.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      user: { id: user.userId, email: user.email },
      workspace_id: user.workspaceId,
      role: 'owner',
      workspaces: [{ id: user.workspaceId, plan: 'hobby', role: 'owner' }],
    });
  });

  it('refuses missing, malformed, tampered and expired tokens with 401', async () => {
    const user = await signUp(ctx.app);
    const [head, payload, sig] = user.token.split('.');
    const forged = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    forged.ws = '00000000-0000-4000-8000-000000000000';
    const tampered = [head, Buffer.from(JSON.stringify(forged)).toString('base64url'), sig].join('.');
    const subject = await tokenSubjectOf(ctx, user.userId);
    const expired = await new IdentityTokens({ current: TEST_TOKEN_SECRET }, 60).issue(
      { subject, workspaceId: user.workspaceId },
      Date.now() - 3600_000,
    );
    const otherKey = await new IdentityTokens(
      { current: 'another-secret-another-secret-another-secret' },
      60,
    ).issue({ subject, workspaceId: user.workspaceId });
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'unauthorized'],
      [{ authorization: 'Basic abc' }, 'invalid_authorization'],
      [{ authorization: 'Bearer not-a-jwt' }, 'invalid_token'],
      [{ authorization: `Bearer ${tampered}` }, 'invalid_token'],
      [{ authorization: `Bearer ${otherKey.token}` }, 'invalid_token'],
      [{ authorization: `Bearer ${expired.token}` }, 'token_expired'],
    ];
    for (const [headers, code] of cases) {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/me', headers });
      expectProblem(res, 401, code);
    }
  });

  it('switches to a workspace the user belongs to, and refuses others with 403', async () => {
    const alice = await signUp(ctx.app);
    const bob = await signUp(ctx.app);
    const refused = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/token',
      headers: alice.headers,
      payload: { workspace_id: bob.workspaceId },
    });
    expectProblem(refused, 403, 'not_a_member');

    await ctx.deps.db.query(
      `INSERT INTO members (workspace_id, email, user_id, role) VALUES ($1, $2, $3, 'developer')`,
      [bob.workspaceId, alice.email, alice.userId],
    );
    const switched = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/token',
      headers: alice.headers,
      payload: { workspace_id: bob.workspaceId },
    });
    expect(switched.statusCode).toBe(200);
    expect(switched.json().workspace_id).toBe(bob.workspaceId);
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/me',
      headers: { authorization: `Bearer ${switched.json().token}` },
    });
    expect(me.json()).toMatchObject({ workspace_id: bob.workspaceId, role: 'developer' });
    expect(me.json().workspaces).toHaveLength(2);

    // Removing the membership stops the token at once.
    await ctx.deps.db.query('DELETE FROM members WHERE workspace_id = $1 AND user_id = $2', [
      bob.workspaceId,
      alice.userId,
    ]);
    const after = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/me',
      headers: { authorization: `Bearer ${switched.json().token}` },
    });
    expectProblem(after, 401, 'membership_revoked');
  });
});
