import { Type } from '@sinclair/typebox';
import { Email, Timestamp, Uuid } from '../http/schemas.js';

const roles = <T extends string>(list: readonly T[], description: string) =>
  Type.Union(
    list.map((r) => Type.Literal(r)),
    { description },
  );

export const RoleSchema = roles(
  ['owner', 'admin', 'developer', 'viewer'] as const,
  'owner, admin, developer or viewer',
);
export const InvitableRoleSchema = roles(
  ['admin', 'developer', 'viewer'] as const,
  'admin, developer or viewer (not owner)',
);

export const Member = Type.Object({
  id: Uuid,
  email: Type.String(),
  role: RoleSchema,
  status: Type.Union([Type.Literal('active'), Type.Literal('invited')], {
    description:
      'invited until the invitee accepts the invitation (POST /invitations/accept); active from then on',
  }),
  created_at: Timestamp,
});

export const MemberList = Type.Object({ members: Type.Array(Member) });

export const InvitedMember = Type.Intersect([
  Member,
  Type.Object({
    invitation: Type.Object(
      {
        token: Type.String({ description: 'shown only here; stored as its SHA-256' }),
        url: Type.String({ description: 'PUBLIC_URL + the console page that accepts the token' }),
        expires_at: Timestamp,
        emailed: Type.Boolean({
          description: 'true when SMTP_URL is set and the mail server took the message',
        }),
      },
      { description: 'The one-time token the invitee accepts with (POST /invitations/accept).' },
    ),
  }),
]);

export const InviteBody = Type.Object(
  { email: Email, role: InvitableRoleSchema },
  { additionalProperties: false },
);
export const RoleBody = Type.Object({ role: RoleSchema }, { additionalProperties: false });

export const MemberParams = Type.Object({ id: Uuid, member_id: Uuid });
