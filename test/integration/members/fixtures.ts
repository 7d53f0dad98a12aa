import type { LightMyRequestResponse } from 'fastify';
import type { AuditAction } from '../../../src/audit/audit.actions.js';
import { appendAudit } from '../../../src/audit/audit.writer.js';
import { transaction } from '../../../src/platform/postgres.js';
import { type SignedIn, signUp, type TestContext } from '../../helpers/context.js';

export type Headers = Record<string, string>;
export type Caller = { headers: Headers; label: string };

export async function call(
  ctx: TestContext,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  headers: Headers,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method,
    url: `/api/v1${url}`,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

export async function setPlan(ctx: TestContext, owner: SignedIn, plan: string): Promise<void> {
  const res = await call(ctx, 'PUT', `/workspaces/${owner.workspaceId}/plan`, owner.headers, { plan });
  if (res.statusCode !== 200) throw new Error(`plan change failed: ${res.statusCode} ${res.body}`);
}

export interface Teammate extends SignedIn {
  memberId: string;
}

/**
 * A new account invited into the owner's workspace with `role`, that accepted the invitation and holds a
 * token for that workspace. The workspace must allow another member (pro or team).
 */
export async function addMember(ctx: TestContext, owner: SignedIn, role: string): Promise<Teammate> {
  const user = await signUp(ctx.app);
  const invited = await call(ctx, 'POST', `/workspaces/${owner.workspaceId}/members`, owner.headers, {
    email: user.email,
    role,
  });
  if (invited.statusCode !== 201) throw new Error(`invite failed: ${invited.statusCode} ${invited.body}`);
  const accepted = await call(ctx, 'POST', '/invitations/accept', user.headers, {
    token: invited.json().invitation.token,
  });
  if (accepted.statusCode !== 200) throw new Error(`accept failed: ${accepted.statusCode} ${accepted.body}`);
  const switched = await call(ctx, 'POST', '/auth/token', user.headers, { workspace_id: owner.workspaceId });
  if (switched.statusCode !== 200)
    throw new Error(`token switch failed: ${switched.statusCode} ${switched.body}`);
  const token = switched.json().token as string;
  return {
    ...user,
    token,
    workspaceId: owner.workspaceId,
    headers: { authorization: `Bearer ${token}` },
    memberId: invited.json().id,
  };
}

export async function apiKeyHeaders(ctx: TestContext, owner: SignedIn, role: string): Promise<Headers> {
  const res = await call(ctx, 'POST', `/workspaces/${owner.workspaceId}/api-keys`, owner.headers, {
    name: `${role} key`,
    role,
  });
  if (res.statusCode !== 201) throw new Error(`key failed: ${res.statusCode} ${res.body}`);
  return { 'x-api-key': res.json().key };
}

/** Owner, admin, developer and viewer users, and admin, developer and viewer API keys of one workspace. */
export async function everyCaller(
  ctx: TestContext,
  owner: SignedIn,
): Promise<{ callers: Record<string, Caller>; members: Record<'admin' | 'developer' | 'viewer', Teammate> }> {
  const admin = await addMember(ctx, owner, 'admin');
  const developer = await addMember(ctx, owner, 'developer');
  const viewer = await addMember(ctx, owner, 'viewer');
  const callers: Record<string, Caller> = {
    owner: { headers: owner.headers, label: 'owner' },
    admin: { headers: admin.headers, label: 'admin' },
    developer: { headers: developer.headers, label: 'developer' },
    viewer: { headers: viewer.headers, label: 'viewer' },
  };
  for (const role of ['admin', 'developer', 'viewer']) {
    callers[`${role} key`] = { headers: await apiKeyHeaders(ctx, owner, role), label: `${role} API key` };
  }
  return { callers, members: { admin, developer, viewer } };
}

export async function auditActions(
  ctx: TestContext,
  workspaceId: string,
  action: string,
): Promise<Record<string, unknown>[]> {
  const { rows } = await ctx.deps.db.query(
    'SELECT actor, action, app_id, details FROM audit_log WHERE workspace_id = $1 AND action = $2 ORDER BY seq',
    [workspaceId, action],
  );
  return rows;
}

/** Appends `count` entries directly through the writer (as other features do in their transactions). */
export async function seedEntries(
  ctx: TestContext,
  workspaceId: string,
  count: number,
  entry: { action?: AuditAction; appId?: string | null; actor?: string } = {},
): Promise<void> {
  await transaction(ctx.deps.db, async (tx) => {
    for (let i = 0; i < count; i++) {
      await appendAudit(tx, {
        workspaceId,
        appId: entry.appId ?? null,
        actor: entry.actor ?? 'seed@example.com',
        action: entry.action ?? 'app.create',
        details: { n: i },
      });
    }
  });
}

/** An app row of the workspace (apps are provisioned by their own feature; here only the row matters). */
export async function createAppRow(ctx: TestContext, workspaceId: string, name = 'app'): Promise<string> {
  const { rows } = await ctx.deps.db.query(
    'INSERT INTO apps (workspace_id, name) VALUES ($1, $2) RETURNING id',
    [workspaceId, name],
  );
  return rows[0].id;
}
