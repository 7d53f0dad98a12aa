import { Type } from '@sinclair/typebox';
import { clientNetwork } from '../edge/client-address.js';
import { problems } from '../http/schemas.js';
import type { App } from '../http/types.js';
import { ResetConfirmBody, ResetConfirmResponse, ResetRequestBody } from './password-reset.schemas.js';

export async function passwordResetRoutes(app: App): Promise<void> {
  const { passwordResets } = app.deps.services;
  const { config } = app.deps;
  // Both need no credential: limited per client address like sign-in (TRUST_PROXY names the real one).
  const limited = {
    public: true,
    rateLimit: { max: config.rateLimits.signinPerMinute, timeWindow: 60_000 },
  };

  app.post(
    '/auth/password-reset',
    {
      config: limited,
      schema: {
        tags: ['auth'],
        summary: 'E-mail a password-reset link',
        description:
          'Always 202, whether or not an account has the e-mail, so the answer tells nobody which ones do. ' +
          'When one does, a one-time link to the console page that sets a new password is e-mailed (it ' +
          'works for `PASSWORD_RESET_TTL_SECONDS`, 1 hour by default); at most `PASSWORD_RESETS_PER_HOUR` ' +
          '(3) per e-mail address and client network (IPv4 /24, IPv6 /48) and hour are sent, so nobody ' +
          "elsewhere can use up the owner's allowance. A new link voids open links older than 10 minutes, " +
          'never a fresher one. Needs `SMTP_URL`: without a mail server the answer is 403 ' +
          '`password_reset_unavailable`, and the operator makes a link with ' +
          '`npm run admin -- reset-password <email>`.',
        security: [],
        body: ResetRequestBody,
        response: { 202: Type.Null(), ...problems(400, 403, 429) },
      },
    },
    async (request, reply) => {
      await passwordResets.request(request.body.email, clientNetwork(request.ip));
      return reply.status(202).send(null);
    },
  );

  app.post(
    '/auth/password-reset/confirm',
    {
      config: limited,
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a reset link',
        description:
          'The token of the link sets the new password and ends every credential made before it: every ' +
          'identity token of the account (sign in again) and every API key the user made, in any ' +
          'workspace (listed in the answer, each audited `api_key.revoke`), so whoever held the account ' +
          'before keeps nothing. Unknown token: 404 `reset_not_found`; used, replaced by a newer link or ' +
          'password change, or expired: 410.',
        security: [],
        body: ResetConfirmBody,
        response: { 200: ResetConfirmResponse, ...problems(400, 404, 410, 429) },
      },
    },
    async (request) => passwordResets.confirm(request.body.token, request.body.new_password),
  );
}
