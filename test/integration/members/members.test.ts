import { describe, expect, it } from 'vitest';
import { expectProblem, fileContext, signUp } from '../../helpers/context.js';
import { auditActions, call, setPlan } from './fixtures.js';

const ctx = fileContext();

const membersUrl = (ws: string) => `/workspaces/${ws}/members`;
const uniqueEmail = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 8)}@example.com`;

describe('the member cap of each plan', () => {
  it('hobby allows one member: inviting a second is a 402 naming the plan that unlocks it, and writes nothing', async () => {
    const owner = await signUp(ctx.app);
    const res = await call(ctx, 'POST', membersUrl(owner.workspaceId), owner.headers, {
      email: uniqueEmail('second'),
      role: 'developer',
    });
    const problem = expectProblem(res, 402, 'plan_upgrade_required');
    expect(problem.detail).toMatch(/Startup \(pro\) plan/);
    expect(problem.detail).toMatch(/allows 1 member/);
    expect(problem).toMatchObject({ plan: 'hobby', required_plan: 'pro' });
    const list = await call(ctx, 'GET', membersUrl(owner.workspaceId), owner.headers);
    expect(list.json().members).toHaveLength(1);
    expect(await auditActions(ctx, owner.workspaceId, 'member.invite')).toEqual([]);
  });

  it('an upgrade lifts the gate at once, a downgrade keeps members but gates the next invite, both ways', async () => {
    const owner = await signUp(ctx.app);
    const invite = (email: string) =>
      call(ctx, 'POST', membersUrl(owner.workspaceId), owner.headers, { email, role: 'viewer' });
    expectProblem(await invite(uniqueEmail('a')), 402);
    await setPlan(ctx, owner, 'pro');
    expect((await invite(uniqueEmail('b'))).statusCode).toBe(201);
    expect((await invite(uniqueEmail('c'))).statusCode).toBe(201);
    await setPlan(ctx, owner, 'hobby');
    expectProblem(await invite(uniqueEmail('d')), 402);
    expect(
      (await call(ctx, 'GET', membersUrl(owner.workspaceId), owner.headers)).json().members,
    ).toHaveLength(3);
    await setPlan(ctx, owner, 'team');
    expect((await invite(uniqueEmail('e'))).statusCode).toBe(201);
    const usage = await call(ctx, 'GET', `/workspaces/${owner.workspaceId}/usage`, owner.headers);
    expect(usage.json()).toMatchObject({ members: 4, member_cap: null });
  });
});

describe('invitations', () => {
  it('an invitee without an account is listed as invited and joins, with the same member id, when it accepts', async () => {
    const owner = await signUp(ctx.app);
    await setPlan(ctx, owner, 'pro');
    const email = uniqueEmail('newcomer');
    const res = await call(ctx, 'POST', membersUrl(owner.workspaceId), owner.headers, {
      email: email.toUpperCase(),
      role: 'developer',
    });
    expect(res.statusCode).toBe(201);
    const member = res.json();
    expect(member).toMatchObject({ email, role: 'developer', status: 'invited' });
    const listed = (await call(ctx, 'GET', membersUrl(owner.workspaceId), owner.headers)).json().members;
    expect(
      listed.map((m: { email: string; role: string; status: string }) => [m.email, m.role, m.status]),
    ).toEqual([
      [owner.email, 'owner', 'active'],
      [email, 'developer', 'invited'],
    ]);
    expect(await auditActions(ctx, owner.workspaceId, 'member.invite')).toEqual([
      {
        actor: owner.email,
        action: 'member.invite',
        app_id: null,
        details: { member_id: member.id, email, new: { role: 'developer', status: 'invited' } },
      },
    ]);

    const invitee = await signUp(ctx.app, email);
    // Signing up is not joining (test/integration/accounts/invitations.test.ts); accepting is.
    expect(
      (await call(ctx, 'GET', membersUrl(owner.workspaceId), owner.headers)).json().members[1].status,
    ).toBe('invited');
    const accepted = await call(ctx, 'POST', '/invitations/accept', invitee.headers, {
      token: member.invitation.token,
    });
    expect(accepted.statusCode).toBe(200);
    const after = (await call(ctx, 'GET', membersUrl(owner.workspaceId), owner.headers)).json().members;
    expect(after[1]).toMatchObject({ id: member.id, email, status: 'active' });
    const me = await call(ctx, 'GET', '/me', invitee.headers);
    expect(me.json().workspaces.map((w: { id: string; role: string }) => [w.id, w.role])).toContainEqual([
      owner.workspaceId,
      'developer',
    ]);
    const switched = await call(ctx, 'POST', '/auth/token', invitee.headers, {
      workspace_id: owner.workspaceId,
    });
    expect(switched.statusCode).toBe(200);
  });

  it('an invitee who already has an account stays invited until it accepts, then can switch to the workspace', async () => {
    const owner = await signUp(ctx.app);
    const existing = await signUp(ctx.app);
    await setPlan(ctx, owner, 'pro');
    const switchTo = () =>
      call(ctx, 'POST', '/auth/token', existing.headers, { workspace_id: owner.workspaceId });
    expectProblem(await switchTo(), 403, 'not_a_member');
    const res = await call(ctx, 'POST', membersUrl(owner.workspaceId), owner.headers, {
      email: existing.email,
      role: 'viewer',
    });
    expect(res.json()).toMatchObject({ email: existing.email, role: 'viewer', status: 'invited' });
    expectProblem(await switchTo(), 403, 'not_a_member');
    await call(ctx, 'POST', '/invitations/accept', existing.headers, { token: res.json().invitation.token });
    const switched = await switchTo();
    expect(switched.statusCode).toBe(200);
    const me = await call(ctx, 'GET', '/me', { authorization: `Bearer ${switched.json().token}` });
    expect(me.json()).toMatchObject({ workspace_id: owner.workspaceId, role: 'viewer' });
  });

  it('one token accepted twice at once: one answer is 200, the other 410, and the member is bound once', async () => {
    const owner = await signUp(ctx.app);
    await setPlan(ctx, owner, 'team');
    const invitee = await signUp(ctx.app);
    const res = await call(ctx, 'POST', membersUrl(owner.workspaceId), owner.headers, {
      email: invitee.email,
      role: 'viewer',
    });
    const body = { token: res.json().invitation.token };
    const answers = await Promise.all(
      [1, 2].map(() => call(ctx, 'POST', '/invitations/accept', invitee.headers, body)),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 410]);
    const { rows } = await ctx.deps.db.query(
      'SELECT count(*)::int AS n FROM members WHERE workspace_id = $1 AND user_id = $2',
      [owner.workspaceId, invitee.userId],
    );
    expect(rows[0].n).toBe(1);
  });

  it('invites an invited e-mail again with a new token, and refuses a member or the owner with 409', async () => {
    const owner = await signUp(ctx.app);
    await setPlan(ctx, owner, 'pro');
    const email = uniqueEmail('twice');
    const url = membersUrl(owner.workspaceId);
    const first = await call(ctx, 'POST', url, owner.headers, { email, role: 'viewer' });
    expect(first.statusCode).toBe(201);
    const again = await call(ctx, 'POST', url, owner.headers, { email: email.toUpperCase(), role: 'admin' });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({ id: first.json().id, role: 'admin', status: 'invited' });
    const invitee = await signUp(ctx.app, email);
    await call(ctx, 'POST', '/invitations/accept', invitee.headers, { token: again.json().invitation.token });
    expectProblem(
      await call(ctx, 'POST', url, owner.headers, { email, role: 'admin' }),
      409,
      'already_member',
    );
    expectProblem(
      await call(ctx, 'POST', url, owner.headers, { email: owner.email, role: 'admin' }),
      409,
      'already_member',
    );
    expect(await auditActions(ctx, owner.workspaceId, 'member.invite')).toHaveLength(2);
  });

  it('refuses bad bodies with 400: the owner role, unknown roles, bad e-mails, missing or extra fields', async () => {
    const owner = await signUp(ctx.app);
    await setPlan(ctx, owner, 'pro');
    const url = membersUrl(owner.workspaceId);
    const bodies = [
      { email: uniqueEmail('x'), role: 'owner' },
      { email: uniqueEmail('x'), role: 'superuser' },
      { email: 'not-an-email', role: 'viewer' },
      { email: 42, role: 'viewer' },
      { role: 'viewer' },
      { email: uniqueEmail('x') },
      { email: uniqueEmail('x'), role: 'viewer', admin: true },
    ];
    for (const body of bodies)
      expectProblem(await call(ctx, 'POST', url, owner.headers, body), 400, 'invalid_request');
    expect((await call(ctx, 'GET', url, owner.headers)).json().members).toHaveLength(1);
  });
});
