import { PLANS, ROLES } from '@ota/shared/contracts';
import { Type } from '@sinclair/typebox';
import { Uuid } from '../http/schemas.js';

export const Email = Type.String({ format: 'email', maxLength: 254 });

export const SigninBody = Type.Object(
  { email: Email, password: Type.String({ minLength: 8, maxLength: 1024 }) },
  { additionalProperties: false },
);

const User = Type.Object({ id: Uuid, email: Type.String() });

export const SigninResponse = Type.Object({
  token: Type.String(),
  expires_at: Type.String(),
  workspace_id: Uuid,
  user: User,
  created: Type.Boolean(),
});

export const TokenBody = Type.Object({ workspace_id: Uuid }, { additionalProperties: false });
export const TokenResponse = Type.Object({
  token: Type.String(),
  workspace_id: Uuid,
  expires_at: Type.String(),
});

const RoleSchema = Type.Union(ROLES.map((r) => Type.Literal(r)));
const PlanSchema = Type.Union(PLANS.map((p) => Type.Literal(p)));

export const MeResponse = Type.Object({
  user: Type.Union([User, Type.Null()]),
  workspace_id: Uuid,
  role: RoleSchema,
  workspaces: Type.Array(Type.Object({ id: Uuid, name: Type.String(), plan: PlanSchema, role: RoleSchema })),
});

export const SignoutBody = Type.Union(
  [
    Type.Object(
      {
        everywhere: Type.Optional(
          Type.Boolean({ description: 'end every token of the user, in every workspace (default false)' }),
        ),
      },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  { description: 'optional: without a body, only the token of the request is signed out' },
);
