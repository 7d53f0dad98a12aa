import { createHash, randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { type SignedIn, signUp, type TestContext } from '../../helpers/context.js';

export type Headers = Record<string, string>;

export interface Workspace extends SignedIn {
  appId: string;
}

/** A new account with one app. */
export async function workspaceWithApp(ctx: TestContext, name = 'Demo app'): Promise<Workspace> {
  const owner = await signUp(ctx.app);
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/apps',
    headers: owner.headers,
    payload: { name },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { ...owner, appId: res.json().id };
}

export async function setPlan(ctx: TestContext, workspaceId: string, plan: 'hobby' | 'pro' | 'team') {
  await ctx.deps.db.query('UPDATE workspaces SET plan = $2 WHERE id = $1', [workspaceId, plan]);
}

/** An API key of the given role, made through the API-key endpoint. */
export async function apiKey(
  ctx: TestContext,
  owner: SignedIn,
  role: 'admin' | 'developer' | 'viewer',
): Promise<Headers> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/v1/workspaces/${owner.workspaceId}/api-keys`,
    headers: owner.headers,
    payload: { name: `${role} key`, role },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { 'x-api-key': res.json().key };
}

export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export async function uploadBundle(
  ctx: TestContext,
  headers: Headers,
  appId: string,
  bytes: Buffer = randomBytes(2048),
): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method: 'PUT',
    url: `/api/v1/apps/${appId}/bundles`,
    headers: { ...headers, 'content-type': 'application/octet-stream' },
    payload: bytes,
  });
}

/** Uploads fresh bytes and returns their sha256. */
export async function bundle(ctx: TestContext, headers: Headers, appId: string): Promise<string> {
  const res = await uploadBundle(ctx, headers, appId);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().sha256;
}

export async function push(
  ctx: TestContext,
  headers: Headers,
  body: Record<string, unknown>,
): Promise<LightMyRequestResponse> {
  return ctx.app.inject({ method: 'POST', url: '/api/v1/modules', headers, payload: body });
}

const pushedPerApp = new Map<string, number>();

/**
 * Uploads a bundle and pushes it; asserts success and returns the release. Without a version the app's
 * first release is 1.0.0 and each later one the next patch (versions are unique per app and channel).
 */
export async function release(
  ctx: TestContext,
  ws: Workspace,
  extra: Record<string, unknown> = {},
  headers: Headers = ws.headers,
): Promise<Record<string, unknown> & { id: string }> {
  const sha256 = await bundle(ctx, headers, ws.appId);
  const n = pushedPerApp.get(ws.appId) ?? 0;
  pushedPerApp.set(ws.appId, n + 1);
  const res = await push(ctx, headers, { app_id: ws.appId, version: `1.0.${n}`, sha256, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export async function rollout(ctx: TestContext, headers: Headers, id: string, pct: unknown, method = 'PUT') {
  return ctx.app.inject({
    method: method as 'PUT' | 'PATCH',
    url: `/api/v1/modules/${id}/rollout`,
    headers,
    payload: { rollout_pct: pct },
  });
}

export async function rollback(ctx: TestContext, headers: Headers, id: string) {
  return ctx.app.inject({ method: 'POST', url: `/api/v1/modules/${id}/rollback`, headers });
}

export async function outbox(ctx: TestContext, workspaceId: string) {
  const { rows } = await ctx.deps.db.query<{ event: string; data: Record<string, unknown> }>(
    'SELECT event, data FROM webhook_outbox WHERE workspace_id = $1 ORDER BY id',
    [workspaceId],
  );
  return rows;
}

export async function audit(ctx: TestContext, workspaceId: string, action?: string) {
  const { rows } = await ctx.deps.db.query<{
    actor: string;
    action: string;
    app_id: string | null;
    details: Record<string, unknown>;
  }>(
    `SELECT actor, action, app_id, details FROM audit_log
      WHERE workspace_id = $1 AND ($2::text IS NULL OR action = $2) ORDER BY seq`,
    [workspaceId, action ?? null],
  );
  return rows;
}

/** Audit entries and outbox rows of a workspace, to compare before and after a refused call. */
export async function writes(ctx: TestContext, workspaceId: string) {
  return { audit: (await audit(ctx, workspaceId)).length, outbox: (await outbox(ctx, workspaceId)).length };
}
