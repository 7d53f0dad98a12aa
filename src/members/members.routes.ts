import { iso, problems, WorkspaceParams } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';
import { InviteBody, InvitedMember, Member, MemberList, MemberParams, RoleBody } from './members.schemas.js';
import type { InvitedMember as InvitedMemberRow } from './members.service.js';
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
          'The member is `invited` until the invitee, signed in with this e-mail (an account it has, or one it ' +
          'makes), accepts the one-time token of `invitation` (POST /invitations/accept); it then becomes ' +
          '`active` with this member id. Nobody joins by signing in alone. `invitation.url` is the console ' +
          'page that accepts it; with SMTP_URL set it is also e-mailed. The token expires after ' +
          'INVITATION_TTL_SECONDS (7 days). Inviting an e-mail that is still invited issues a new token (and ' +
          'role) and voids the old one; an active member is a 409. The hobby plan allows one member: inviting a ' +
          'second answers 402 with an upgrade message. Audited as `member.invite`.',
        params: WorkspaceParams,
        body: InviteBody,
        response: { 201: InvitedMember, ...problems(400, 401, 402, 403, 409) },
      },
    },
    async (request, reply) => {
      const created: InvitedMemberRow = await members.invite(
        principalOf(request),
        request.params.id,
        request.body,
      );
      return reply.status(201).send({ ...toJson(created), invitation: created.invitation });
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
          "The member's tokens stop working at once; an invited member's token is withdrawn (410 on accept). " +
          'The owner cannot be removed (409). Audited as `member.remove`.',
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
