import { describe, expect, it } from 'vitest';
import { expectProblem, fileContext, signUp } from '../../helpers/context.js';
import { addMember, auditActions, call, type Headers, setPlan } from '../members/fixtures.js';

/**
 * A password reset recovers the account: whoever held it before (a squatter who signed up first with the
 * owner's e-mail, or someone with a stolen password) loses every credential made before the reset, API
 * keys included, in every workspace. A voluntary change keeps keys. Key creation and revocation are
 * audited in the key's workspace.
 */
const ctx = fileContext();

async function createKey(
  ws: string,
  headers: Headers,
  name: string,
): Promise<{ id: string; headers: Headers }> {
  const res = await call(ctx, 'POST', `/workspaces/${ws}/api-keys`, headers, { name });
  if (res.statusCode !== 201) throw new Error(`key: ${res.statusCode} ${res.body}`);
  return { id: res.json().id, headers: { 'x-api-key': res.json().key } };
}

/** The token of a reset link made by the operator's path (no mail server here). */
async function resetToken(email: string): Promise<string> {
  const issued = await ctx.deps.services.passwordResets.issueForOperator(email);
  return /#token=(.+)$/.exec(issued.url)![1]!;
}

const confirm = (token: string, newPassword: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/auth/password-reset/confirm',
    payload: { token, new_password: newPassword },
    remoteAddress: '198.19.40.1',
  });

describe('a password reset ends every credential made before it', () => {
  it('revokes the API keys the user made in every workspace, lists them and audits each', async () => {
    const owner = await signUp(ctx.app);
    await setPlan(ctx, owner, 'pro');
    const squatter = await addMember(ctx, owner, 'admin');
    const inTeam = await createKey(owner.workspaceId, squatter.headers, 'team key');
    const ownersKey = await createKey(owner.workspaceId, owner.headers, 'owner key');
    // The squatter's key in the account's personal workspace: sign in there first.
    const personal = await call(
      ctx,
      'POST',
      '/auth/signin',
      {},
      { email: squatter.email, password: squatter.password },
    );
    const personalWs = personal.json().workspace_id as string;
    const inPersonal = await createKey(
      personalWs,
      { authorization: `Bearer ${personal.json().token}` },
      'mine',
    );

    const res = await confirm(await resetToken(squatter.email), 'the real owner is back');
    expect(res.statusCode).toBe(200);
    const ended = res.json().revoked_api_keys as Array<{ id: string; name: string; workspace_id: string }>;
    expect(ended.map((k) => k.id).sort()).toEqual([inTeam.id, inPersonal.id].sort());
    expect(ended.find((k) => k.id === inTeam.id)).toEqual({
      id: inTeam.id,
      name: 'team key',
      workspace_id: owner.workspaceId,
    });

    for (const key of [inTeam, inPersonal]) {
      expectProblem(await call(ctx, 'GET', '/apps', key.headers), 401, 'invalid_api_key');
    }
    expectProblem(await call(ctx, 'GET', '/me', squatter.headers), 401);
    // Other people's keys stay.
    expect((await call(ctx, 'GET', '/apps', ownersKey.headers)).statusCode).toBe(200);

    const teamRevokes = await auditActions(ctx, owner.workspaceId, 'api_key.revoke');
    expect(teamRevokes).toEqual([
      expect.objectContaining({
        actor: squatter.email,
        details: { key_id: inTeam.id, name: 'team key', reason: 'password_reset' },
      }),
    ]);
    const personalRevokes = await auditActions(ctx, personalWs, 'api_key.revoke');
    expect(personalRevokes.map((e) => (e.details as { key_id: string }).key_id)).toEqual([inPersonal.id]);
  });

  it('a voluntary password change keeps the keys', async () => {
    const user = await signUp(ctx.app);
    const key = await createKey(user.workspaceId, user.headers, 'ci');
    const changed = await call(ctx, 'POST', '/auth/password', user.headers, {
      current_password: user.password,
      new_password: 'changed on purpose',
    });
    expect(changed.statusCode).toBe(200);
    expect((await call(ctx, 'GET', '/apps', key.headers)).statusCode).toBe(200);
  });
});

describe('API keys are audited in their workspace', () => {
  it('api_key.create names the key and its role; api_key.revoke the key, by the API and by a removal', async () => {
    const owner = await signUp(ctx.app);
    await setPlan(ctx, owner, 'pro');
    const key = await createKey(owner.workspaceId, owner.headers, 'deploy');
    const [created] = await auditActions(ctx, owner.workspaceId, 'api_key.create');
    expect(created).toEqual(
      expect.objectContaining({
        actor: owner.email,
        details: { key_id: key.id, name: 'deploy', role: 'admin' },
      }),
    );
    // A key made with a key: the actor is `api-key`, and the entry names the key that made it.
    const child = await createKey(owner.workspaceId, key.headers, 'child');
    const childEntry = (await auditActions(ctx, owner.workspaceId, 'api_key.create')).at(-1)!;
    expect(childEntry.actor).toBe('api-key');
    expect(childEntry.details).toEqual(
      expect.objectContaining({ key_id: child.id, api_key: expect.objectContaining({ id: key.id }) }),
    );

    const deleted = await call(
      ctx,
      'DELETE',
      `/workspaces/${owner.workspaceId}/api-keys/${key.id}`,
      owner.headers,
    );
    expect(deleted.statusCode).toBe(204);
    const admin = await addMember(ctx, owner, 'admin');
    const adminKey = await createKey(owner.workspaceId, admin.headers, 'admin key');
    const removed = await call(
      ctx,
      'DELETE',
      `/workspaces/${owner.workspaceId}/members/${admin.memberId}`,
      owner.headers,
    );
    expect(removed.statusCode).toBe(204);
    const revokes = await auditActions(ctx, owner.workspaceId, 'api_key.revoke');
    expect(revokes.map((e) => e.details)).toEqual([
      { key_id: key.id, name: 'deploy', reason: 'revoked' },
      { key_id: adminKey.id, name: 'admin key', reason: 'member_removed' },
    ]);
  });
});
