import { Type } from '@sinclair/typebox';
import { Email } from '../auth/auth.schemas.js';
import { Timestamp, Uuid } from '../http/schemas.js';

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
    description: 'invited until the invitee has an account; active from then on',
  }),
  created_at: Timestamp,
});

export const MemberList = Type.Object({ members: Type.Array(Member) });

export const InviteBody = Type.Object(
  { email: Email, role: InvitableRoleSchema },
  { additionalProperties: false },
);
export const RoleBody = Type.Object({ role: RoleSchema }, { additionalProperties: false });

export const MemberParams = Type.Object({ id: Uuid, member_id: Uuid });
