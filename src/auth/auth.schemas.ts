import { PLANS, ROLES } from '@ota/shared/contracts';
import { Type } from '@sinclair/typebox';
import { withExample } from '../http/openapi.js';
import { Email, Uuid } from '../http/schemas.js';

export const Password = Type.String({ minLength: 8, maxLength: 1024 });

export const SigninBody = Type.Object(
  {
    email: Email,
    password: Password,
    create: Type.Optional(
      Type.Boolean({
        description:
          'whether an unknown e-mail makes an account: unset or true it does (if SIGNUP allows); false ' +
          'answers 404 `account_not_found` instead, so a mistyped e-mail makes no account',
      }),
    ),
  },
  { additionalProperties: false },
);

export const PasswordBody = withExample(
  Type.Object({ current_password: Password, new_password: Password }, { additionalProperties: false }),
  { current_password: 'correct horse battery', new_password: 'staple gun turnip 42' },
);

export const PasswordResponse = Type.Object({
  token: Type.String({ description: 'a new identity token for the same workspace; earlier ones are ended' }),
  expires_at: Type.String(),
  workspace_id: Uuid,
});

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
  app_ids: Type.Optional(
    Type.Array(Uuid, { description: 'With an API key limited to some apps: those apps.' }),
  ),
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
