import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Refused, type Subject, storeSubjects } from './subjects.js';

/** Users, members, invitations and API keys against Postgres and the fakes (subjects.ts). */
const subjects = storeSubjects();

async function newUser(s: Subject) {
  const email = `u-${randomUUID().slice(0, 8)}@example.com`;
  return s.transaction(async (tx) => {
    const user = (await s.auth.insertUser(tx, email, 'hash'))!;
    const workspace = await s.workspaces.insert(tx, `${email}'s workspace`, user.id);
    await s.members.insertOwner(tx, workspace.id, email, user.id);
    return { user, workspaceId: workspace.id };
  });
}

describe.each(subjects)('%s account stores', (_name, make) => {
  it('auth: one user per e-mail, a workspace it owns, memberships by token subject', async () => {
    const s = make();
    const { user, workspaceId } = await newUser(s);
    expect(await s.transaction((tx) => s.auth.insertUser(tx, user.email, 'other'))).toBeUndefined();
    expect(await s.auth.findUserByEmail(user.email)).toEqual(user);
    expect(await s.auth.userById(user.id)).toEqual({ id: user.id, email: user.email });
    expect(await s.auth.defaultWorkspace(user.id)).toBe(workspaceId);
    expect(await s.auth.membership(user.id, workspaceId)).toEqual({
      workspace_id: workspaceId,
      role: 'owner',
      email: user.email,
    });
    expect(await s.auth.workspacesOf(user.id)).toEqual([
      { id: workspaceId, name: `${user.email}'s workspace`, plan: 'hobby', role: 'owner' },
    ]);
    expect(await s.auth.tokenSubject(user.id)).toBe(user.token_subject);
    const tokenId = randomUUID();
    expect(await s.auth.membershipByTokenSubject(user.token_subject, workspaceId, tokenId)).toEqual({
      user_id: user.id,
      email: user.email,
      role: 'owner',
      revoked: false,
    });
    const elsewhere = await s.newWorkspace();
    expect(await s.auth.membershipByTokenSubject(user.token_subject, elsewhere, tokenId)).toMatchObject({
      role: null,
    });
    for (const [ws, id] of [
      ['nope', tokenId],
      [workspaceId, 'nope'],
    ] as const) {
      await expect(s.auth.membershipByTokenSubject(user.token_subject, ws, id)).rejects.toMatchObject({
        code: '22P02',
      });
    }
    expect(await s.workspaces.memberCount(workspaceId)).toBe(1);
  });

  it('tokens: one signed out until it expires, or every one of a user by a new subject', async () => {
    const s = make();
    const { user, workspaceId } = await newUser(s);
    const [one, two] = [randomUUID(), randomUUID()];
    const inAnHour = new Date(Date.now() + 3_600_000);
    // A refused change signs nothing out.
    await expect(
      s.transaction(async (tx) => {
        await s.auth.revokeToken(tx, one, inAnHour);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await s.auth.membershipByTokenSubject(user.token_subject, workspaceId, one)).toMatchObject({
      revoked: false,
    });
    await s.transaction((tx) => s.auth.revokeToken(tx, one, inAnHour));
    await s.transaction((tx) => s.auth.revokeToken(tx, one, inAnHour));
    expect(await s.auth.membershipByTokenSubject(user.token_subject, workspaceId, one)).toMatchObject({
      revoked: true,
    });
    expect(await s.auth.membershipByTokenSubject(user.token_subject, workspaceId, two)).toMatchObject({
      revoked: false,
    });

    await s.transaction((tx) => s.auth.rotateTokenSubject(tx, user.id));
    const subject = await s.auth.tokenSubject(user.id);
    expect(subject).not.toBe(user.token_subject);
    expect(await s.auth.membershipByTokenSubject(user.token_subject, workspaceId, two)).toBeUndefined();
    expect(await s.auth.membershipByTokenSubject(subject!, workspaceId, two)).toMatchObject({
      user_id: user.id,
      revoked: false,
    });
  });

  it('members: invited then active, one row per e-mail, counted, owner listed first', async () => {
    const s = make();
    const { user, workspaceId: ws } = await newUser(s);
    const joiner = (await newUser(s)).user;
    const invited = await s.transaction((tx) => s.members.insert(tx, ws, joiner.email, 'viewer'));
    expect(invited).toMatchObject({ email: joiner.email, role: 'viewer', status: 'invited', user_id: null });
    await expect(
      s.transaction((tx) => s.members.insert(tx, ws, joiner.email, 'admin')),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await s.workspaces.memberCount(ws)).toBe(2);
    await s.transaction(async (tx) => {
      expect(await s.members.findByEmail(tx, ws, joiner.email)).toEqual(invited);
      expect(await s.members.activate(tx, ws, invited.id, joiner.id)).toMatchObject({ status: 'active' });
      expect(await s.members.activate(tx, ws, invited.id, joiner.id)).toBeUndefined();
      await s.members.setRole(tx, ws, invited.id, 'admin');
    });
    expect(await s.transaction((tx) => s.members.lockMembership(tx, ws, joiner.id))).toEqual({
      id: invited.id,
      role: 'admin',
    });
    expect((await s.members.list(ws)).map((m) => [m.email, m.role])).toEqual([
      [user.email, 'owner'],
      [joiner.email, 'admin'],
    ]);
    expect(await s.members.find(await s.newWorkspace(), invited.id)).toBeUndefined();

    const doomed = s.transaction(async (tx) => {
      await s.members.remove(tx, ws, invited.id);
      throw new Refused();
    });
    await expect(doomed).rejects.toBeInstanceOf(Refused);
    expect(await s.members.find(ws, invited.id)).toMatchObject({ status: 'active' });
    await s.transaction((tx) => s.members.remove(tx, ws, invited.id));
    expect(await s.members.find(ws, invited.id)).toBeUndefined();
    expect(await s.workspaces.memberCount(ws)).toBe(1);
  });

  it('invitations: a new one voids the open one, accepted once, expiry by the store’s clock', async () => {
    const s = make();
    const { workspaceId: ws } = await newUser(s);
    const member = await s.transaction((tx) => s.members.insert(tx, ws, 'inv@example.com', 'viewer'));
    const issue = (tokenHash: string, ttlSeconds: number) =>
      s.transaction((tx) =>
        s.invitations.issue(tx, {
          workspaceId: ws,
          memberId: member.id,
          email: member.email,
          tokenHash,
          createdBy: null,
          ttlSeconds,
        }),
      );
    await issue('hash-old', 3600);
    await issue('hash-new', 3600);
    await s.transaction(async (tx) => {
      expect(await s.invitations.lockByHash(tx, 'hash-old')).toMatchObject({ voided_at: expect.any(Date) });
      const open = await s.invitations.lockByHash(tx, 'hash-new');
      expect(open).toMatchObject({
        member_id: member.id,
        voided_at: null,
        accepted_at: null,
        expired: false,
      });
      await s.invitations.markAccepted(tx, open!.id);
    });
    const accepted = await s.transaction((tx) => s.invitations.lockByHash(tx, 'hash-new'));
    expect(accepted?.accepted_at).toBeInstanceOf(Date);
    await issue('hash-spent', 0);
    s.tick();
    expect(await s.transaction((tx) => s.invitations.lockByHash(tx, 'hash-spent'))).toMatchObject({
      expired: true,
    });
    expect(await s.transaction((tx) => s.invitations.lockByHash(tx, 'unknown'))).toBeUndefined();
  });

  it('e-mail verification: unverified until a link is used once, expiry by the store’s clock', async () => {
    const s = make();
    const { user } = await newUser(s);
    expect(await s.emailVerifications.isUnverified(user.id)).toBe(false);
    await s.transaction((tx) => s.emailVerifications.markUnverified(tx, user.id));
    expect(await s.emailVerifications.isUnverified(user.id)).toBe(true);
    // A rolled-back proof leaves the account unverified.
    await expect(
      s.transaction(async (tx) => {
        await s.emailVerifications.markVerified(tx, user.id);
        throw new Refused();
      }),
    ).rejects.toBeInstanceOf(Refused);
    expect(await s.emailVerifications.isUnverified(user.id)).toBe(true);

    await s.transaction((tx) =>
      s.emailVerifications.issue(tx, { userId: user.id, tokenHash: 'vh-open', ttlSeconds: 3600 }),
    );
    await s.transaction(async (tx) => {
      expect(await s.emailVerifications.lockByHash(tx, 'vh-open')).toEqual({
        user_id: user.id,
        email: user.email,
        used: false,
        expired: false,
      });
      await s.emailVerifications.markUsed(tx, 'vh-open');
      await s.emailVerifications.markVerified(tx, user.id);
    });
    expect(await s.transaction((tx) => s.emailVerifications.lockByHash(tx, 'vh-open'))).toMatchObject({
      used: true,
    });
    expect(await s.emailVerifications.isUnverified(user.id)).toBe(false);
    await s.transaction((tx) =>
      s.emailVerifications.issue(tx, { userId: user.id, tokenHash: 'vh-spent', ttlSeconds: 0 }),
    );
    s.tick();
    expect(await s.transaction((tx) => s.emailVerifications.lockByHash(tx, 'vh-spent'))).toMatchObject({
      expired: true,
    });
    expect(await s.transaction((tx) => s.emailVerifications.lockByHash(tx, 'unknown'))).toBeUndefined();
  });

  it('password resets: a new link voids open ones older than the fresh window, never a fresher one', async () => {
    const s = make();
    const { user } = await newUser(s);
    const issue = (tokenHash: string, keepFreshSeconds: number) =>
      s.transaction((tx) =>
        s.passwordResets.issue(tx, {
          userId: user.id,
          tokenHash,
          issuedBy: 'email',
          ttlSeconds: 3600,
          keepFreshSeconds,
        }),
      );
    const state = (hash: string) => s.transaction((tx) => s.passwordResets.lockByHash(tx, hash));
    await issue('pr-first', 600);
    await issue('pr-second', 600);
    expect((await state('pr-first'))?.voided_at).toBeNull();
    s.tick();
    // With no fresh window (every open link older than it), a new link voids the rest.
    await issue('pr-third', 0);
    expect((await state('pr-first'))?.voided_at).toBeInstanceOf(Date);
    expect((await state('pr-second'))?.voided_at).toBeInstanceOf(Date);
    expect((await state('pr-third'))?.voided_at).toBeNull();
  });

  it('api keys: listed with their maker, capped and revoked with the maker, acting at most as the maker', async () => {
    const s = make();
    const { user, workspaceId: ws } = await newUser(s);
    const maker = (await newUser(s)).user;
    const member = await s.transaction(async (tx) => {
      const m = await s.members.insert(tx, ws, maker.email, 'admin');
      return s.members.activate(tx, ws, m.id, maker.id);
    });
    const [ownerHash, makerHash] = [`h-${randomUUID()}`, `h-${randomUUID()}`];
    const insert = (name: string, createdBy: string | null, keyHash: string) =>
      s.transaction((tx) =>
        s.apiKeys.insert(tx, { workspaceId: ws, name, role: 'admin', keyHash, createdBy }),
      );
    const owners = await insert('owner key', user.id, ownerHash);
    s.tick();
    const makers = await insert('maker key', maker.id, makerHash);
    expect(makers).toMatchObject({ role: 'admin', created_by: { id: maker.id, email: maker.email } });
    expect((await s.apiKeys.list(ws)).map((k) => k.id)).toEqual([makers.id, owners.id]);
    expect(await s.transaction((tx) => s.apiKeys.lockLive(tx, makers.id))).toMatchObject({ role: 'admin' });

    // A maker demoted behind the store's back: the key still acts at most with the maker's role.
    await s.transaction((tx) => s.members.setRole(tx, ws, member!.id, 'viewer'));
    // Authentication also reads the key's name and its maker's e-mail, for `details.api_key` in the audit log.
    expect(await s.apiKeys.findLive(makerHash)).toEqual({
      id: makers.id,
      workspace_id: ws,
      name: 'maker key',
      role: 'viewer',
      created_by: maker.id,
      creator_email: maker.email,
      app_ids: null,
      expires_at: null,
    });
    expect(await s.transaction((tx) => s.apiKeys.capMadeBy(tx, ws, maker.id, 'developer'))).toEqual([
      makers.id,
    ]);
    expect((await s.apiKeys.list(ws)).find((k) => k.id === makers.id)?.role).toBe('developer');
    expect(await s.transaction((tx) => s.apiKeys.revokeMadeBy(tx, ws, maker.id))).toEqual([
      { id: makers.id, name: 'maker key', workspace_id: ws },
    ]);
    expect((await s.apiKeys.list(ws)).map((k) => k.id)).toEqual([owners.id]);
    expect(await s.apiKeys.findLive(makerHash)).toBeUndefined();
    expect(await s.apiKeys.findLive(ownerHash)).toMatchObject({ id: owners.id, role: 'admin' });
    await s.apiKeys.touch(owners.id);
    expect((await s.apiKeys.list(ws))[0]?.last_used_at).toBeInstanceOf(Date);
    const revoke = (workspaceId: string) =>
      s.transaction((tx) => s.apiKeys.revoke(tx, workspaceId, owners.id));
    expect(await revoke(await s.newWorkspace())).toBeUndefined();
    expect(await revoke(ws)).toEqual({ id: owners.id, name: 'owner key', workspace_id: ws });
    expect(await revoke(ws)).toBeUndefined();

    // A password reset ends what the user made in every workspace, and nothing of anyone else's.
    const elsewhere = await s.newWorkspace();
    const [a, b, other] = [
      await insert('again', maker.id, `h-${randomUUID()}`),
      await s.transaction((tx) =>
        s.apiKeys.insert(tx, {
          workspaceId: elsewhere,
          name: 'elsewhere',
          role: 'viewer',
          keyHash: `h-${randomUUID()}`,
          createdBy: maker.id,
        }),
      ),
      await insert('not theirs', user.id, `h-${randomUUID()}`),
    ];
    const ended = await s.transaction((tx) => s.apiKeys.revokeAllMadeBy(tx, maker.id));
    expect(ended).toEqual(
      [
        { id: a.id, name: 'again', workspace_id: ws },
        { id: b.id, name: 'elsewhere', workspace_id: elsewhere },
      ].sort((x, y) => x.id.localeCompare(y.id)),
    );
    expect((await s.apiKeys.list(ws)).map((k) => k.id)).toEqual([other.id]);
    expect(await s.transaction((tx) => s.apiKeys.revokeAllMadeBy(tx, maker.id))).toEqual([]);
  });
});
