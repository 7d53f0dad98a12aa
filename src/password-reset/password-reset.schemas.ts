import { Type } from '@sinclair/typebox';
import { Email, Password } from '../auth/auth.schemas.js';
import { withExample } from '../http/openapi.js';

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
