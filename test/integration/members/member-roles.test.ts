import { describe, expect, it } from 'vitest';
import { expectProblem, fileContext, type SignedIn, signUp } from '../../helpers/context.js';
import { addMember, apiKeyHeaders, auditActions, call, everyCaller, setPlan } from './fixtures.js';

const ctx = fileContext();

const membersUrl = (ws: string) => `/workspaces/${ws}/members`;
const uniqueEmail = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const MANAGERS = new Set(['owner', 'admin', 'admin key']);

async function teamWorkspace(): Promise<SignedIn> {
  const owner = await signUp(ctx.app);
  await setPlan(ctx, owner, 'team');
  return owner;
}

describe('who may do what with members', () => {
  it('every role and API key may list; only owner, admin and admin keys may invite, re-role and remove', async () => {
    const owner = await teamWorkspace();
    const { callers } = await everyCaller(ctx, owner);
    for (const [name, caller] of Object.entries(callers)) {
      const ws = owner.workspaceId;
      const list = await call(ctx, 'GET', membersUrl(ws), caller.headers);
      expect(list.statusCode, `${caller.label} lists`).toBe(200);

      const invite = await call(ctx, 'POST', membersUrl(ws), caller.headers, {
        email: uniqueEmail('t'),
        role: 'viewer',
      });
      // A target invited by the owner, so refusals are about the caller, not the target.
      const target = await call(ctx, 'POST', membersUrl(ws), owner.headers, {
        email: uniqueEmail('target'),
        role: 'viewer',
      });
      const targetId = target.json().id as string;
      const patch = await call(ctx, 'PATCH', `${membersUrl(ws)}/${targetId}`, caller.headers, {
        role: 'developer',
      });
      const remove = await call(ctx, 'DELETE', `${membersUrl(ws)}/${targetId}`, caller.headers);
      if (MANAGERS.has(name)) {
        expect(invite.statusCode, `${caller.label} invites`).toBe(201);
        expect(patch.statusCode, `${caller.label} re-roles`).toBe(200);
        expect(patch.json()).toMatchObject({ id: targetId, role: 'developer' });
        expect(remove.statusCode, `${caller.label} removes`).toBe(204);
      } else {
        expectProblem(invite, 403, 'forbidden');
        expectProblem(patch, 403, 'forbidden');
        expectProblem(remove, 403, 'forbidden');
      }
    }
  });

  it('records the actor of each change: the e-mail of a user, or api-key for an API key', async () => {
    const owner = await teamWorkspace();
    const key = await apiKeyHeaders(ctx, owner, 'admin');
    const email = uniqueEmail('by-key');
    const invited = await call(ctx, 'POST', membersUrl(owner.workspaceId), key, { email, role: 'viewer' });
    const id = invited.json().id as string;
    await call(ctx, 'PATCH', `${membersUrl(owner.workspaceId)}/${id}`, owner.headers, { role: 'admin' });
    await call(ctx, 'DELETE', `${membersUrl(owner.workspaceId)}/${id}`, key);
    expect(await auditActions(ctx, owner.workspaceId, 'member.invite')).toMatchObject([{ actor: 'api-key' }]);
    expect(await auditActions(ctx, owner.workspaceId, 'member.role_change')).toEqual([
      {
        actor: owner.email,
        action: 'member.role_change',
        app_id: null,
        details: {
          member_id: id,
          email,
          old: { role: 'viewer' },
          new: { role: 'admin' },
          capped_api_keys: [],
        },
      },
    ]);
    expect(await auditActions(ctx, owner.workspaceId, 'member.remove')).toEqual([
      {
        actor: 'api-key',
        action: 'member.remove',
        app_id: null,
        details: {
          member_id: id,
          email,
          old: { role: 'admin', status: 'invited' },
          revoked_api_keys: [],
          api_key: {
            id: expect.any(String),
            name: 'admin key',
            created_by: { id: owner.userId, email: owner.email },
          },
        },
      },
    ]);
  });
});

describe('the owner role', () => {
  it('the owner cannot be removed (409) by the owner or an admin, and nothing is recorded', async () => {
    const owner = await teamWorkspace();
    const admin = await addMember(ctx, owner, 'admin');
    const ownerId = (await call(ctx, 'GET', membersUrl(owner.workspaceId), owner.headers)).json().members[0]
      .id;
    for (const headers of [owner.headers, admin.headers]) {
      expectProblem(
        await call(ctx, 'DELETE', `${membersUrl(owner.workspaceId)}/${ownerId}`, headers),
        409,
        'owner_immutable',
      );
    }
    expect(await auditActions(ctx, owner.workspaceId, 'member.remove')).toEqual([]);
  });

  it('the owner cannot be demoted (409); an admin may neither change the owner nor grant the owner role (403)', async () => {
    const owner = await teamWorkspace();
    const admin = await addMember(ctx, owner, 'admin');
    const dev = await addMember(ctx, owner, 'developer');
    const ws = owner.workspaceId;
    const ownerId = (await call(ctx, 'GET', membersUrl(ws), owner.headers)).json().members[0].id;
    const patch = (headers: Record<string, string>, id: string, role: string) =>
      call(ctx, 'PATCH', `${membersUrl(ws)}/${id}`, headers, { role });

    expectProblem(await patch(owner.headers, ownerId, 'admin'), 409, 'owner_immutable');
    expectProblem(await patch(owner.headers, dev.memberId, 'owner'), 409, 'single_owner');
    expectProblem(await patch(admin.headers, ownerId, 'viewer'), 403, 'owner_role_reserved');
    expectProblem(await patch(admin.headers, dev.memberId, 'owner'), 403, 'owner_role_reserved');
    expect(await auditActions(ctx, ws, 'member.role_change')).toEqual([]);
    const roles = (await call(ctx, 'GET', membersUrl(ws), owner.headers))
      .json()
      .members.map((m: { role: string }) => m.role);
    expect(roles).toEqual(['owner', 'admin', 'developer']);
  });
});

describe('changes take effect at once', () => {
  it('a promotion grants and a demotion withdraws rights on the token already in hand', async () => {
    const owner = await teamWorkspace();
    const dev = await addMember(ctx, owner, 'developer');
    const url = membersUrl(owner.workspaceId);
    expectProblem(
      await call(ctx, 'POST', url, dev.headers, { email: uniqueEmail('x'), role: 'viewer' }),
      403,
    );
    await call(ctx, 'PATCH', `${url}/${dev.memberId}`, owner.headers, { role: 'admin' });
    expect(
      (await call(ctx, 'POST', url, dev.headers, { email: uniqueEmail('y'), role: 'viewer' })).statusCode,
    ).toBe(201);
    await call(ctx, 'PATCH', `${url}/${dev.memberId}`, owner.headers, { role: 'viewer' });
    expectProblem(
      await call(ctx, 'POST', url, dev.headers, { email: uniqueEmail('z'), role: 'viewer' }),
      403,
    );
    expect((await call(ctx, 'GET', '/me', dev.headers)).json().role).toBe('viewer');
  });

  it("a removed member's token stops working at once; removing again is a 404", async () => {
    const owner = await teamWorkspace();
    const viewer = await addMember(ctx, owner, 'viewer');
    expect((await call(ctx, 'GET', '/me', viewer.headers)).statusCode).toBe(200);
    const url = `${membersUrl(owner.workspaceId)}/${viewer.memberId}`;
    expect((await call(ctx, 'DELETE', url, owner.headers)).statusCode).toBe(204);
    expectProblem(await call(ctx, 'GET', '/me', viewer.headers), 401, 'membership_revoked');
    expectProblem(await call(ctx, 'DELETE', url, owner.headers), 404, 'not_found');
    expectProblem(await call(ctx, 'PATCH', url, owner.headers, { role: 'admin' }), 404, 'not_found');
  });

  it('withdrawing an invitation means the invitee does not join on sign-in', async () => {
    const owner = await teamWorkspace();
    const email = uniqueEmail('withdrawn');
    const invited = await call(ctx, 'POST', membersUrl(owner.workspaceId), owner.headers, {
      email,
      role: 'viewer',
    });
    await call(ctx, 'DELETE', `${membersUrl(owner.workspaceId)}/${invited.json().id}`, owner.headers);
    const user = await signUp(ctx.app, email);
    const res = await call(ctx, 'POST', '/auth/token', user.headers, { workspace_id: owner.workspaceId });
    expectProblem(res, 403, 'not_a_member');
  });

  it('setting the role a member already has changes nothing and records nothing', async () => {
    const owner = await teamWorkspace();
    const dev = await addMember(ctx, owner, 'developer');
    const res = await call(ctx, 'PATCH', `${membersUrl(owner.workspaceId)}/${dev.memberId}`, owner.headers, {
      role: 'developer',
    });
    expect(res.json()).toMatchObject({ id: dev.memberId, role: 'developer', status: 'active' });
    expect(await auditActions(ctx, owner.workspaceId, 'member.role_change')).toEqual([]);
  });
});

describe('other workspaces and bad input', () => {
  it("another workspace's members path is a 403; a member id of another workspace is a 404", async () => {
    const a = await teamWorkspace();
    const b = await teamWorkspace();
    const bMember = await addMember(ctx, b, 'viewer');
    expectProblem(await call(ctx, 'GET', membersUrl(b.workspaceId), a.headers), 403, 'wrong_workspace');
    expectProblem(
      await call(ctx, 'POST', membersUrl(b.workspaceId), a.headers, {
        email: uniqueEmail('x'),
        role: 'viewer',
      }),
      403,
      'wrong_workspace',
    );
    expectProblem(
      await call(ctx, 'DELETE', `${membersUrl(b.workspaceId)}/${bMember.memberId}`, a.headers),
      403,
      'wrong_workspace',
    );
    expectProblem(
      await call(ctx, 'DELETE', `${membersUrl(a.workspaceId)}/${bMember.memberId}`, a.headers),
      404,
    );
    expectProblem(
      await call(ctx, 'PATCH', `${membersUrl(a.workspaceId)}/${bMember.memberId}`, a.headers, {
        role: 'admin',
      }),
      404,
    );
    expect((await call(ctx, 'GET', '/me', bMember.headers)).json().role).toBe('viewer');
  });

  it('malformed ids and role bodies are 400', async () => {
    const owner = await teamWorkspace();
    const dev = await addMember(ctx, owner, 'developer');
    const url = `${membersUrl(owner.workspaceId)}/${dev.memberId}`;
    expectProblem(
      await call(ctx, 'DELETE', `${membersUrl(owner.workspaceId)}/42`, owner.headers),
      400,
      'invalid_request',
    );
    expectProblem(
      await call(ctx, 'PATCH', `${membersUrl('x')}/${dev.memberId}`, owner.headers, { role: 'admin' }),
      400,
    );
    for (const body of [{}, { role: 'root' }, { role: 1 }, { role: 'admin', email: 'x@example.com' }]) {
      expectProblem(await call(ctx, 'PATCH', url, owner.headers, body), 400, 'invalid_request');
    }
  });
});
