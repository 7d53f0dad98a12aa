import { Type } from '@sinclair/typebox';
import { clientNetwork } from '../edge/client-address.js';
import { problems } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';
import {
  MeResponse,
  PasswordBody,
  PasswordResponse,
  SigninBody,
  SigninResponse,
  SignoutBody,
  TokenBody,
  TokenResponse,
} from './auth.schemas.js';

export async function authRoutes(app: App): Promise<void> {
  const { auth } = app.deps.services;

  app.post(
    '/auth/signin',
    {
      // Per client address (the real one behind a proxy: TRUST_PROXY); failures are also limited per
      // client network and per account and network, in the service (signin-throttle.ts).
      config: {
        public: true,
        rateLimit: { max: app.deps.config.rateLimits.signinPerMinute, timeWindow: 60_000 },
      },
      schema: {
        tags: ['auth'],
        summary: 'Sign in; the first sign-in creates the account and its personal workspace',
        description:
          'An unknown e-mail makes an account (and its personal workspace) unless `create` is false (then ' +
          "404 `account_not_found`) or the server's `SIGNUP` setting refuses it (`invite-only` makes " +
          'accounts only for e-mails with a pending invitation, `closed` none). Where SIGNUP refuses it, an ' +
          'unknown e-mail is answered exactly as a wrong password (401 `invalid_credentials`, `create: ' +
          'false` included), so the answer tells nobody which e-mails have accounts. Limited per client ' +
          'address (`RATE_LIMIT_SIGNIN_PER_MINUTE`), and failures per client network (IPv4 /24, IPv6 /48: ' +
          '`RATE_LIMIT_SIGNIN_FAILURES_PER_NETWORK`) and per e-mail and network ' +
          '(`RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT`) within `RATE_LIMIT_SIGNIN_FAILURE_WINDOW_MINUTES`: at ' +
          'a limit, sign-ins from that network (for that account, or for any) are a 429 with `Retry-After` ' +
          'until the window ends, the right password included. Failures from one network never refuse ' +
          'the right password from another network that has not failed.',
        security: [],
        body: SigninBody,
        response: { 200: SigninResponse, ...problems(400, 401, 403, 404, 429) },
      },
    },
    async (request) =>
      auth.signin(request.body.email, request.body.password, {
        create: request.body.create,
        network: clientNetwork(request.ip),
      }),
  );

  app.post(
    '/auth/password',
    {
      // A wrong current password counts toward the account's sign-in failures (429 at the limit).
      config: { rateLimit: { max: app.deps.config.rateLimits.signinPerMinute, timeWindow: 60_000 } },
      schema: {
        tags: ['auth'],
        summary: "Change the caller's password; every other session of the user ends",
        description:
          'Identity tokens only (an API key: 403 `user_token_required`). Every identity token of the user, ' +
          'in every workspace, stops working, this one included: the answer carries a new token for the ' +
          'same workspace. Open password-reset links stop working. API keys are not sessions and stay. ' +
          'Wrong current password: 403 `wrong_password`.',
        body: PasswordBody,
        response: { 200: PasswordResponse, ...problems(400, 401, 403, 429) },
      },
    },
    async (request) =>
      auth.changePassword(
        principalOf(request),
        request.body.current_password,
        request.body.new_password,
        clientNetwork(request.ip),
      ),
  );

  app.post(
    '/auth/token',
    {
      schema: {
        tags: ['auth'],
        summary: 'An identity token for another workspace the user belongs to',
        body: TokenBody,
        response: { 200: TokenResponse, ...problems(400, 401, 403) },
      },
    },
    async (request) => auth.switchWorkspace(principalOf(request), request.body.workspace_id),
  );

  app.post(
    '/auth/signout',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign out: end this identity token, or with {everywhere: true} every token of the user',
        description:
          'The token is refused from the next request on, by every API process. `everywhere` ends every ' +
          "identity token of the user, in every workspace (other users and the workspace's API keys are " +
          'untouched). Identity tokens only: an API key gets 403.',
        body: SignoutBody,
        response: { 204: Type.Null(), ...problems(400, 401, 403) },
      },
    },
    async (request, reply) => {
      await auth.signout(principalOf(request), { everywhere: request.body?.everywhere === true });
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/me',
    {
      config: { appScope: 'any' },
      schema: {
        tags: ['auth'],
        summary: 'The caller, its workspace and role',
        response: { 200: MeResponse, ...problems(401) },
      },
    },
    async (request) => auth.me(principalOf(request)),
  );
}
