import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/api/app.js';
import { loadConfig } from '../../../src/config/config.js';
import { createContainer } from '../../../src/container/container.js';
import type { App } from '../../../src/http/types.js';
import { expectProblem, fileContext, type SignedIn, signUp } from '../../helpers/context.js';

/**
 * Identity tokens can be ended before they expire: one (sign out) or every one of the user (everywhere),
 * at once on every API copy. The second copy here is another container and app on the same databases, as
 * a second API process would be.
 */
let copy: { app: App; close(): Promise<void> };

const ctx = fileContext();
beforeAll(async () => {
  const deps = createContainer(loadConfig(ctx.env), { name: 'test-copy', poolSize: 2 });
  const app = await buildApp(deps);
  copy = {
    app,
    close: async () => {
      await app.close();
      await deps.close();
    },
  };
});
afterAll(async () => {
  await copy?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const me = (app: App, token: string) =>
  app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(token) });
function signout(token: string, payload?: unknown): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v1/auth/signout',
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** Another sign-in of the same account: a second session, with its own token. */
async function signInAgain(user: SignedIn): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/auth/signin',
    payload: { email: user.email, password: user.password },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().token;
}

describe('POST /auth/signout', () => {
  it('ends the token it is called with, at once on every API copy; other sessions keep working', async () => {
    const user = await signUp(ctx.app);
    const other = await signInAgain(user);
    for (const app of [ctx.app, copy.app]) expect((await me(app, user.token)).statusCode).toBe(200);

    const res = await signout(user.token);
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');

    for (const app of [ctx.app, copy.app]) {
      expectProblem(await me(app, user.token), 401, 'token_revoked');
      expect((await me(app, other)).statusCode).toBe(200);
    }
    expectProblem(await signout(user.token), 401, 'token_revoked');
  });

  it('with {everywhere: true} ends every token of the user, whichever workspace it is for', async () => {
    const user = await signUp(ctx.app);
    const bystander = await signUp(ctx.app);
    const second = await signInAgain(user);
    const switched = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/token',
      headers: user.headers,
      payload: { workspace_id: user.workspaceId },
    });
    expect(switched.statusCode).toBe(200);

    expect((await signout(second, { everywhere: true })).statusCode).toBe(204);

    for (const app of [ctx.app, copy.app]) {
      for (const token of [user.token, second, switched.json().token])
        expect((await me(app, token)).statusCode).toBe(401);
      expect((await me(app, bystander.token)).statusCode).toBe(200);
    }
    // Signing in again works, with a new token.
    expect((await me(ctx.app, await signInAgain(user))).statusCode).toBe(200);
  });

  it('takes no body, {} or {everywhere: false} alike, and refuses anything else', async () => {
    for (const payload of [undefined, {}, { everywhere: false }]) {
      const user = await signUp(ctx.app);
      const other = await signInAgain(user);
      expect((await signout(user.token, payload)).statusCode).toBe(204);
      expect((await me(ctx.app, other)).statusCode).toBe(200);
    }
    const user = await signUp(ctx.app);
    for (const payload of [{ everywhere: 'yes' }, { all: true }, [true]])
      expectProblem(await signout(user.token, payload), 400, 'invalid_request');
    expect((await me(ctx.app, user.token)).statusCode).toBe(200);
  });

  it('is for identity tokens: an API key gets 403, no credential 401', async () => {
    const user = await signUp(ctx.app);
    const key = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${user.workspaceId}/api-keys`,
      headers: user.headers,
      payload: { name: 'ci' },
    });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/signout',
      headers: { 'x-api-key': key.json().key },
    });
    expectProblem(res, 403, 'user_token_required');
    expectProblem(await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/signout' }), 401);
  });
});
