import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/api/app.js';
import { loadConfig } from '../../../src/config/config.js';
import { createContainer } from '../../../src/container/container.js';
import type { App } from '../../../src/http/types.js';
import { expectProblem, fileContext, type SignedIn, signUp } from '../../helpers/context.js';

/**
 * SIGNUP: who may make an account by signing in. Accounts are made on an open server first (the shipped
 * default), then the same database is served with the setting under test, as an operator restarts the API
 * with it.
 */
let owner: SignedIn;
const servers: Array<{ app: App; close(): Promise<void> }> = [];

const ctx = fileContext();
beforeAll(async () => {
  owner = await signUp(ctx.app);
  await ctx.deps.db.query(`UPDATE workspaces SET plan = 'team' WHERE id = $1`, [owner.workspaceId]);
});
afterAll(async () => {
  for (const s of servers) await s.close();
});

async function serverWith(signup: string): Promise<App> {
  const deps = createContainer(loadConfig({ ...ctx.env, SIGNUP: signup }), { name: 'test', poolSize: 2 });
  const app = await buildApp(deps);
  await app.ready();
  servers.push({
    app,
    close: async () => {
      await app.close();
      await deps.close();
    },
  });
  return app;
}

let address = 0;
const signin = (app: App, payload: Record<string, unknown>) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/auth/signin',
    payload: { password: 'correct horse battery', ...payload },
    remoteAddress: `198.19.7.${++address}`,
  });

describe('SIGNUP', () => {
  it('is open by default: a first sign-in makes the account', async () => {
    expect(ctx.config.signup).toBe('open');
    const res = await signin(ctx.app, { email: 'newcomer@example.com' });
    expect(res.statusCode).toBe(200);
    expect(res.json().created).toBe(true);
  });

  it('closed: existing accounts sign in, new e-mails get the wrong-password answer and no account', async () => {
    const app = await serverWith('closed');
    const res = await signin(app, { email: 'stranger@example.com' });
    expectProblem(res, 401, 'invalid_credentials');
    const { rows } = await ctx.deps.db.query('SELECT 1 FROM users WHERE email = $1', [
      'stranger@example.com',
    ]);
    expect(rows).toHaveLength(0);
    const existing = await signin(app, { email: owner.email, password: owner.password });
    expect(existing.statusCode).toBe(200);
    expect(existing.json().created).toBe(false);
  });

  it('invite-only: only an e-mail with a pending invitation makes an account', async () => {
    const app = await serverWith('invite-only');
    expectProblem(await signin(app, { email: 'uninvited@example.com' }), 401, 'invalid_credentials');

    const invited = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${owner.workspaceId}/members`,
      headers: owner.headers,
      payload: { email: 'invited@example.com', role: 'developer' },
    });
    expect(invited.statusCode).toBe(201);
    const res = await signin(app, { email: 'Invited@Example.com' });
    expect(res.statusCode).toBe(200);
    expect(res.json().created).toBe(true);

    // A withdrawn invitation lets nobody in.
    const withdrawn = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${owner.workspaceId}/members`,
      headers: owner.headers,
      payload: { email: 'withdrawn@example.com', role: 'viewer' },
    });
    const memberId = withdrawn.json().id as string;
    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/v1/workspaces/${owner.workspaceId}/members/${memberId}`,
      headers: owner.headers,
    });
    expect(removed.statusCode).toBe(204);
    expectProblem(await signin(app, { email: 'withdrawn@example.com' }), 401, 'invalid_credentials');
  });

  it('closed and invite-only: an unknown e-mail is answered as a wrong password, byte for byte', async () => {
    for (const mode of ['closed', 'invite-only']) {
      const app = await serverWith(mode);
      for (const create of [undefined, false, true]) {
        const extra = create === undefined ? {} : { create };
        const unknown = await signin(app, { email: `nobody-${mode}@example.com`, ...extra });
        const wrong = await signin(app, { email: owner.email, password: 'not the password', ...extra });
        expect(unknown.statusCode, `${mode} ${create}`).toBe(401);
        expect(unknown.headers['content-type']).toBe(wrong.headers['content-type']);
        expect(unknown.body, `${mode} ${create}`).toBe(wrong.body);
      }
    }
  });

  it('rejects an unknown value at start-up', () => {
    expect(() => loadConfig({ ...ctx.env, SIGNUP: 'invite' })).toThrow(/SIGNUP/);
  });
});

describe('create: false on sign-in', () => {
  it('answers 404 account_not_found for an unknown e-mail and makes nothing', async () => {
    const res = await signin(ctx.app, { email: 'typo@exmaple.com', create: false });
    expectProblem(res, 404, 'account_not_found');
    const { rows } = await ctx.deps.db.query('SELECT 1 FROM users WHERE email = $1', ['typo@exmaple.com']);
    expect(rows).toHaveLength(0);
  });

  it('signs an existing account in; create: true makes a new one', async () => {
    const res = await signin(ctx.app, { email: owner.email, password: owner.password, create: false });
    expect(res.statusCode).toBe(200);
    const made = await signin(ctx.app, { email: 'deliberate@example.com', create: true });
    expect(made.statusCode).toBe(200);
    expect(made.json().created).toBe(true);
  });
});
