import { Type } from '@sinclair/typebox';
import { Uuid } from '../http/schemas.js';

export const AcceptBody = Type.Object(
  {
    // The token as POST /workspaces/{id}/members answered it (`ota_inv_` and 43 base64url characters).
    token: Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' }),
  },
  { additionalProperties: false },
);

export const AcceptResponse = Type.Object({
  workspace_id: Uuid,
  role: Type.Union(['admin', 'developer', 'viewer'].map((r) => Type.Literal(r))),
});
