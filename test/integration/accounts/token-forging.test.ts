import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/api/app.js';
import { loadConfig } from '../../../src/config/config.js';
import { createContainer } from '../../../src/container/container.js';
import type { App } from '../../../src/http/types.js';
import {
  expectProblem,
  fileContext,
  type SignedIn,
  signUp,
  TEST_TOKEN_SECRET,
} from '../../helpers/context.js';
import { addMember, call, setPlan, type Teammate } from '../members/fixtures.js';

// A deployment whose token secret is known to the attacker (a published default left in place): the test
// signs with the same secret the service uses.
let owner: SignedIn;
let viewer: Teammate;
const ctx = fileContext();
beforeAll(async () => {
  owner = await signUp(ctx.app);
  await setPlan(ctx, owner, 'team');
  viewer = await addMember(ctx, owner, 'viewer');
});

/** A token as the service made them: HS256, subject the user id, claim `ws` the workspace. */
async function forge(secret: string, subject: string, workspaceId: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ ws: workspaceId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(subject)
    .setIssuer('ota-service')
    .setAudience('ota-api')
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(new TextEncoder().encode(secret));
}

/** Every id a viewer can read: the audit log, the member list, its own /me. */
async function readableByViewer(): Promise<string> {
  const texts = await Promise.all([
    call(ctx, 'GET', '/audit?limit=200', viewer.headers),
    call(ctx, 'GET', `/workspaces/${owner.workspaceId}/members`, viewer.headers),
    call(ctx, 'GET', '/me', viewer.headers),
    call(ctx, 'GET', `/workspaces/${owner.workspaceId}`, viewer.headers),
  ]);
  return texts.map((r) => r.body).join('\n');
}

describe('identity tokens cannot be forged from what a viewer reads', () => {
  it('a viewer who knows the secret and reads the owner’s user id in the audit log cannot become the owner', async () => {
    const audit = await call(ctx, 'GET', '/audit?action=login', viewer.headers);
    const ownerLogin = audit.json().entries.find((e: { actor: string }) => e.actor === owner.email);
    const userId = ownerLogin.details.user_id as string;
    expect(userId).toBe(owner.userId);
    const token = await forge(TEST_TOKEN_SECRET, userId, owner.workspaceId);
    const res = await call(
      ctx,
      'PUT',
      `/workspaces/${owner.workspaceId}/plan`,
      { authorization: `Bearer ${token}` },
      {
        plan: 'pro',
      },
    );
    expectProblem(res, 401, 'invalid_token');
    const plan = await call(ctx, 'GET', `/workspaces/${owner.workspaceId}`, owner.headers);
    expect(plan.json().plan).toBe('team');
  });

  it('a token carries no id that a viewer can read, other than the workspace it names', async () => {
    const claims = decodeJwt(owner.token);
    const header = decodeProtectedHeader(owner.token);
    expect(header.kid).toMatch(/^[0-9a-f]{16}$/);
    const readable = await readableByViewer();
    expect(readable).toContain(owner.userId); // the audit log does show user ids
    for (const [name, value] of Object.entries(claims)) {
      if (name === 'ws' || typeof value !== 'string') continue;
      expect(readable, `claim ${name}`).not.toContain(value);
      expect(value, `claim ${name}`).not.toBe(owner.userId);
    }
  });
});

describe('rotating the token secret by key id', () => {
  const OLD = 'old-secret-old-secret-old-secret-0123456789';
  const NEW = 'new-secret-new-secret-new-secret-0123456789';

  async function appWith(env: Record<string, string>): Promise<{ app: App; close(): Promise<void> }> {
    const deps = createContainer(loadConfig({ ...ctx.env, ...env }), { name: 'test', poolSize: 2 });
    const app = await buildApp(deps);
    return {
      app,
      close: async () => {
        await app.close();
        await deps.close();
      },
    };
  }

  it('keeps tokens of the previous secret working while new ones use the new secret, until it is dropped', async () => {
    const before = await appWith({ AUTH_TOKEN_SECRET: OLD });
    const rotated = await appWith({ AUTH_TOKEN_SECRET: NEW, AUTH_TOKEN_PREVIOUS_SECRETS: OLD });
    const after = await appWith({ AUTH_TOKEN_SECRET: NEW });
    try {
      const me = (app: App, token: string) =>
        app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: `Bearer ${token}` } });
      const oldToken = (await signUp(before.app)).token;
      expect((await me(rotated.app, oldToken)).statusCode).toBe(200);
      const newToken = (await signUp(rotated.app)).token;
      expect(decodeProtectedHeader(newToken).kid).not.toBe(decodeProtectedHeader(oldToken).kid);
      expect((await me(after.app, newToken)).statusCode).toBe(200);
      expectProblem(await me(after.app, oldToken), 401, 'invalid_token');
      expectProblem(await me(before.app, newToken), 401, 'invalid_token');
    } finally {
      await Promise.all([before.close(), rotated.close(), after.close()]);
    }
  });
});
