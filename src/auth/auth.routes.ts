import { problems } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';
import { MeResponse, SigninBody, SigninResponse, TokenBody, TokenResponse } from './auth.schemas.js';

export async function authRoutes(app: App): Promise<void> {
  const { auth } = app.deps.services;

  app.post(
    '/auth/signin',
    {
      // Per client address (the real one behind a proxy: TRUST_PROXY); failures are also limited per
      // account, in the service, so guessing from many addresses stops too.
      config: {
        public: true,
        rateLimit: { max: app.deps.config.rateLimits.signinPerMinute, timeWindow: 60_000 },
      },
      schema: {
        tags: ['auth'],
        summary: 'Sign in; the first sign-in creates the account and its personal workspace',
        description:
          'Limited per client address (`RATE_LIMIT_SIGNIN_PER_MINUTE`) and per account: after ' +
          '`RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT` failed attempts within ' +
          '`RATE_LIMIT_SIGNIN_FAILURE_WINDOW_MINUTES`, every sign-in of that account is a 429 with ' +
          '`Retry-After` until the window ends, the right password included.',
        security: [],
        body: SigninBody,
        response: { 200: SigninResponse, ...problems(400, 401, 429) },
      },
    },
    async (request) => auth.signin(request.body.email, request.body.password),
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

  app.get(
    '/me',
    {
      schema: {
        tags: ['auth'],
        summary: 'The caller, its workspace and role',
        response: { 200: MeResponse, ...problems(401) },
      },
    },
    async (request) => auth.me(principalOf(request)),
  );
}
