import { iso, problems, WorkspaceParams } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';
import { InviteBody, Member, MemberList, MemberParams, RoleBody } from './members.schemas.js';
import type { MemberRow } from './members.store.js';

const toJson = (m: MemberRow) => ({
  id: m.id,
  email: m.email,
  role: m.role,
  status: m.status,
  created_at: iso(m.created_at)!,
});

export async function membersRoutes(app: App): Promise<void> {
  const { members } = app.deps.services;

  app.get(
    '/workspaces/:id/members',
    {
      schema: {
        tags: ['members'],
        summary: 'List members and pending invitations',
        description:
          'Any member or API key of the workspace. The owner comes first, then by invitation time.',
        params: WorkspaceParams,
        response: { 200: MemberList, ...problems(400, 401, 403) },
      },
    },
    async (request) => ({
      members: (await members.list(principalOf(request), request.params.id)).map(toJson),
    }),
  );

  app.post(
    '/workspaces/:id/members',
    {
      schema: {
        tags: ['members'],
        summary: 'Invite a member (owner or admin)',
        description:
          'An e-mail that already has an account becomes an active member at once; otherwise the invitee ' +
          'joins on its first sign-in and keeps this member id. The hobby plan allows one member: inviting a ' +
          'second answers 402 with an upgrade message. Already a member or invited: 409. Audited as ' +
          '`member.invite`.',
        params: WorkspaceParams,
        body: InviteBody,
        response: { 201: Member, ...problems(400, 401, 402, 403, 409) },
      },
    },
    async (request, reply) => {
      const created = await members.invite(principalOf(request), request.params.id, request.body);
      return reply.status(201).send(toJson(created));
    },
  );

  app.patch(
    '/workspaces/:id/members/:member_id',
    {
      schema: {
        tags: ['members'],
        summary: "Change a member's role (owner or admin)",
        description:
          'Takes effect at once, also on tokens already issued. The owner role is never granted, changed or ' +
          'removed here: an admin who tries gets 403, the owner 409. Audited as `member.role_change` ' +
          'with old and new role; setting the current role changes nothing.',
        params: MemberParams,
        body: RoleBody,
        response: { 200: Member, ...problems(400, 401, 403, 404, 409) },
      },
    },
    async (request) =>
      toJson(
        await members.changeRole(
          principalOf(request),
          request.params.id,
          request.params.member_id,
          request.body.role,
        ),
      ),
  );

  app.delete(
    '/workspaces/:id/members/:member_id',
    {
      schema: {
        tags: ['members'],
        summary: 'Remove a member or withdraw an invitation (owner or admin)',
        description:
          "The member's tokens stop working at once. The owner cannot be removed (409). Audited as " +
          '`member.remove`.',
        params: MemberParams,
        response: { 204: { type: 'null', description: 'removed' }, ...problems(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await members.remove(principalOf(request), request.params.id, request.params.member_id);
      return reply.status(204).send(null);
    },
  );
}
