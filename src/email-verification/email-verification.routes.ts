import { Type } from '@sinclair/typebox';
import { withExample } from '../http/openapi.js';
import { problems } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';

const ConfirmBody = withExample(
  Type.Object(
    {
      // The token of the link (`ota_vfy_` and 43 base64url characters), from its `#token=` fragment.
      token: Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' }),
    },
    { additionalProperties: false },
  ),
  { token: 'ota_vfy_3q2-7wEAAAAbBQ9rS1y0sVq2N5o8Lr6kXn4cJd0' },
);

const ConfirmResponse = Type.Object({ email: Type.String() });

export async function emailVerificationRoutes(app: App): Promise<void> {
  const { emailVerification } = app.deps.services;
  const limited = { rateLimit: { max: app.deps.config.rateLimits.signinPerMinute, timeWindow: 60_000 } };

  app.post(
    '/auth/verify-email',
    {
      config: limited,
      schema: {
        tags: ['auth'],
        summary: 'E-mail a new link that proves the signed-in account owns its address',
        description:
          'With `SMTP_URL` set, an account made by a first sign-in is e-mailed a one-time link and cannot ' +
          'create API keys, invite members or push releases until it is opened (403 `email_unverified`); ' +
          'it may sign in, read, make apps and change its password meanwhile. This sends a new link (202; ' +
          'nothing is sent when the address is proven already, as every account is on a server without a ' +
          'mail server). Identity tokens only (an API key: 403 `user_token_required`).',
        response: { 202: Type.Null(), ...problems(401, 403, 429) },
      },
    },
    async (request, reply) => {
      await emailVerification.resend(principalOf(request));
      return reply.status(202).send(null);
    },
  );

  app.post(
    '/auth/verify-email/confirm',
    {
      config: { public: true, ...limited },
      schema: {
        tags: ['auth'],
        summary: 'Prove an e-mail address with the token of its link',
        description:
          'Unknown token: 404 `verification_not_found`; used or expired (a day): 410. A password reset by ' +
          'an e-mailed link proves the address too.',
        security: [],
        body: ConfirmBody,
        response: { 200: ConfirmResponse, ...problems(400, 404, 410, 429) },
      },
    },
    async (request) => emailVerification.confirm(request.body.token),
  );
}
