import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../../src/access/principal.js';
import { createApiKeysService } from '../../../src/api-keys/api-keys.service.js';
import { createAuthService } from '../../../src/auth/auth.service.js';
import { IdentityTokens } from '../../../src/auth/identity-tokens.js';
import { createInvitationsService } from '../../../src/invitations/invitations.service.js';
import { createMembersService } from '../../../src/members/members.service.js';
import { createFakeStores } from '../../helpers/fakes.js';

/** Accounts on fake stores: sign-in, invitations, members and the API keys that stand for them. */
function world() {
  const stores = createFakeStores();
  const tokens = new IdentityTokens({ current: 'unit-test-secret-unit-test-secret-0' }, 3600);
  const auth = createAuthService(stores, { tokens });
  const invitations = createInvitationsService(stores, {
    ttlSeconds: 3600,
    publicUrl: 'https://ota.example.com',
    log: pino({ level: 'silent' }),
  });
  const members = createMembersService(stores, { invitations });
  const apiKeys = createApiKeysService(stores);
  const who = (token: string) => auth.authenticate({ authorization: `Bearer ${token}` });
  const signIn = async (email: string) => who((await auth.signin(email, 'a long password')).token);
  return { stores, auth, invitations, members, apiKeys, who, signIn };
}

const actions = (w: ReturnType<typeof world>) => w.stores.audit.entries.map((e) => e.action);

describe('accounts services on fake stores', () => {
  it('the first sign-in makes the account and its workspace; a wrong password is refused and logs nothing', async () => {
    const w = world();
    const first = await w.auth.signin(' Ann@Example.com ', 'a long password');
    expect(first).toMatchObject({ created: true, user: { email: 'ann@example.com' } });
    expect(actions(w)).toEqual(['account.create', 'login']);
    const ann = await w.who(first.token);
    expect(ann).toMatchObject({ kind: 'user', role: 'owner', workspaceId: first.workspace_id });
    expect(await w.auth.me(ann)).toMatchObject({
      workspaces: [
        { id: first.workspace_id, name: "ann@example.com's workspace", plan: 'hobby', role: 'owner' },
      ],
    });

    await expect(w.auth.signin('ann@example.com', 'not the password')).rejects.toMatchObject({ status: 401 });
    expect(actions(w)).toEqual(['account.create', 'login']);
    expect(await w.auth.signin('ann@example.com', 'a long password')).toMatchObject({
      created: false,
      workspace_id: first.workspace_id,
    });
    expect(actions(w)).toEqual(['account.create', 'login', 'login']);
  });

  it('signing out ends one token, or every token of the user; an API key cannot sign out', async () => {
    const w = world();
    const first = (await w.auth.signin('bo@example.com', 'a long password')).token;
    const second = (await w.auth.signin('bo@example.com', 'a long password')).token;
    const third = (await w.auth.signin('bo@example.com', 'a long password')).token;
    const other = (await w.auth.signin('cy@example.com', 'a long password')).token;
    await w.auth.signout(await w.who(first));
    await expect(w.who(first)).rejects.toMatchObject({ status: 401, code: 'token_revoked' });
    expect(await w.who(second)).toMatchObject({ email: 'bo@example.com' });

    await w.auth.signout(await w.who(second), { everywhere: true });
    for (const token of [second, third])
      await expect(w.who(token)).rejects.toMatchObject({ status: 401, code: 'invalid_token' });
    expect(await w.who(other)).toMatchObject({ email: 'cy@example.com' });

    const cy = await w.who(other);
    const key = await w.apiKeys.create(cy, cy.workspaceId, { name: 'ci' });
    const byKey = await w.auth.authenticate({ apiKey: key.key });
    await expect(w.auth.signout(byKey)).rejects.toMatchObject({ status: 403, code: 'user_token_required' });
    // Nothing was signed out by the refusal.
    expect(await w.who(other)).toMatchObject({ email: 'cy@example.com' });
  });

  it('an invitation is accepted once, by the invited address; a new one voids the old', async () => {
    const w = world();
    const owner = await w.signIn('owner@example.com');
    await w.stores.transaction((tx) => w.stores.workspaces.setPlan(tx, owner.workspaceId, 'team'));
    const first = await w.members.invite(owner, owner.workspaceId, {
      email: 'Dev@Example.com',
      role: 'viewer',
    });
    const again = await w.members.invite(owner, owner.workspaceId, {
      email: 'dev@example.com',
      role: 'developer',
    });
    expect(again).toMatchObject({ id: first.id, status: 'invited', role: 'developer' });

    const stranger = await w.signIn('stranger@example.com');
    await expect(w.invitations.accept(stranger, again.invitation.token)).rejects.toMatchObject({
      status: 403,
    });
    const dev = await w.signIn('dev@example.com');
    await expect(w.invitations.accept(dev, first.invitation.token)).rejects.toMatchObject({
      code: 'invitation_withdrawn',
    });
    expect(await w.invitations.accept(dev, again.invitation.token)).toEqual({
      workspace_id: owner.workspaceId,
      role: 'developer',
    });
    await expect(w.invitations.accept(dev, again.invitation.token)).rejects.toMatchObject({
      code: 'invitation_used',
    });
    expect((await w.members.list(owner, owner.workspaceId)).map((m) => [m.email, m.status])).toEqual([
      ['owner@example.com', 'active'],
      ['dev@example.com', 'active'],
    ]);
  });

  it('an invitation over the plan’s member cap is refused and writes nothing', async () => {
    const w = world();
    const owner = await w.signIn('owner@example.com');
    const before = actions(w).length;
    await expect(
      w.members.invite(owner, owner.workspaceId, { email: 'dev@example.com', role: 'viewer' }),
    ).rejects.toMatchObject({ status: 402 });
    expect(await w.members.list(owner, owner.workspaceId)).toHaveLength(1);
    expect(w.stores.invitations.rows).toEqual([]);
    expect(actions(w)).toHaveLength(before);
  });

  it('a demotion caps the member’s keys, a removal revokes them, and authentication follows at once', async () => {
    const w = world();
    const owner = await w.signIn('owner@example.com');
    await w.stores.transaction((tx) => w.stores.workspaces.setPlan(tx, owner.workspaceId, 'team'));
    const invited = await w.members.invite(owner, owner.workspaceId, {
      email: 'ad@example.com',
      role: 'admin',
    });
    const admin: Principal = await w.signIn('ad@example.com');
    await w.invitations.accept(admin, invited.invitation.token);
    const inTeam = await w.auth.switchWorkspace(admin, owner.workspaceId);
    const adminThere = await w.who(inTeam.token);
    const key = await w.apiKeys.create(adminThere, owner.workspaceId, { name: 'ci' });
    expect(key).toMatchObject({ role: 'admin', created_by: { email: 'ad@example.com' } });
    const byKey = () => w.auth.authenticate({ apiKey: key.key });
    expect(await byKey()).toMatchObject({ kind: 'api-key', role: 'admin', apiKeyId: key.id });

    await w.members.changeRole(owner, owner.workspaceId, invited.id, 'viewer');
    expect(w.stores.audit.entries.at(-1)?.details).toMatchObject({ capped_api_keys: [key.id] });
    expect(await byKey()).toMatchObject({ role: 'viewer' });
    await expect(w.apiKeys.create(await byKey(), owner.workspaceId, { name: 'x' })).rejects.toMatchObject({
      status: 403,
    });

    await w.members.remove(owner, owner.workspaceId, invited.id);
    expect(w.stores.audit.entries.at(-1)?.details).toMatchObject({ revoked_api_keys: [key.id] });
    await expect(byKey()).rejects.toMatchObject({ status: 401 });
    await expect(w.who(inTeam.token)).rejects.toMatchObject({ code: 'membership_revoked' });
  });
});
