import { Type } from '@sinclair/typebox';
import { Password } from '../auth/auth.schemas.js';
import { withExample } from '../http/openapi.js';
import { Email, Uuid } from '../http/schemas.js';

export const ResetRequestBody = withExample(Type.Object({ email: Email }, { additionalProperties: false }), {
  email: 'dana@example.com',
});

export const ResetConfirmBody = withExample(
  Type.Object(
    {
      // The token of the link (`ota_pwr_` and 43 base64url characters), from its `#token=` fragment.
      token: Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' }),
      new_password: Password,
    },
    { additionalProperties: false },
  ),
  { token: 'ota_pwr_3q2-7wEAAAAbBQ9rS1y0sVq2N5o8Lr6kXn4cJd0', new_password: 'staple gun turnip 42' },
);

export const ResetConfirmResponse = withExample(
  Type.Object({
    revoked_api_keys: Type.Array(
      Type.Object({ id: Uuid, name: Type.String(), workspace_id: Uuid }, { additionalProperties: false }),
      {
        description:
          'The API keys the user had made, in any workspace, that the reset ended (each audited ' +
          '`api_key.revoke` in its workspace). Make new ones after signing in.',
      },
    ),
  }),
  {
    revoked_api_keys: [
      {
        id: '0d9f6a52-6a0e-4d4b-9b7e-2f1f6d1c3a10',
        name: 'ci',
        workspace_id: '5b3f0c1e-8a54-4d0f-9a3c-6f0b2e4d7c21',
      },
    ],
  },
);
