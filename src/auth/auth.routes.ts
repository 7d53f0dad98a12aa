import { problems } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';
import { MeResponse, SigninBody, SigninResponse, TokenBody, TokenResponse } from './auth.schemas.js';

export async function authRoutes(app: App): Promise<void> {
  const { auth } = app.deps.services;

  app.post(
    '/auth/signin',
    {
      // Per client address: slows password guessing without locking out the account owner.
      config: {
        public: true,
        rateLimit: { max: app.deps.config.rateLimits.signinPerMinute, timeWindow: 60_000 },
      },
      schema: {
        tags: ['auth'],
        summary: 'Sign in; the first sign-in creates the account and its personal workspace',
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
