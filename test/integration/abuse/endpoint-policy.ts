import { randomBytes } from 'node:crypto';
import type { Role } from '../../../src/auth/principal.js';
import type { Plan, Tenant } from './tenant.js';

/** A valid request to one endpoint: path parameters, query, and a JSON body or raw bytes. */
export interface Req {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  raw?: Buffer;
}

/** Builds a valid request against `t`'s own resources. Called once per request sent, so it may make fresh ones. */
export type Build = (t: Tenant) => Promise<Req>;

export interface PublicPolicy {
  access: 'public';
  /** Not in the OpenAPI document (the document itself). */
  hidden?: true;
  /** Outside /api/v1. */
  request: Build;
}

export interface ControlPolicy {
  access: 'control';
  /** The lowest role that may call it; every role below gets 403. */
  minimum: Role;
  /** Only identity tokens: an API key of any role gets 403. */
  usersOnly?: true;
  /**
   * `ids`: the request names the workspace's resources (path, body or query), so another workspace's ids
   * must be refused with 403 or 404. `credential`: the workspace is the credential's and no id is sent,
   * so the answer must simply hold none of another workspace's data.
   */
  scope: 'ids' | 'credential';
  request: Build;
  /**
   * A plan gate: below `plan`, the request (or `gate.request`) is answered 402 to a role that is allowed.
   * The role check comes first: a role below the minimum gets 403 on any plan (tested).
   */
  gate?: { plan: Plan; request?: Build };
}

export type Policy = PublicPolicy | ControlPolicy;

const ws = (t: Tenant) => ({ id: t.workspaceId });
const app = async (t: Tenant) => ({ app_id: (await t.app()).id });
const releaseParams = async (t: Tenant) => ({ module_id: (await t.release()).id });
const none: Build = async () => ({});
const email = () => `someone-${randomBytes(5).toString('hex')}@example.com`;

/**
 * Every endpoint of the API and who may call it. The abuse tests read the live OpenAPI document and fail on
 * any route missing here: a new endpoint needs its line (minimum role, scope, a valid request) first.
 * Keys are `METHOD path` exactly as in the document.
 */
export const ENDPOINT_POLICY: Record<string, Policy> = {
  'GET /healthz': { access: 'public', request: none },
  'GET /readyz': { access: 'public', request: none },
  'GET /api/v1/openapi.json': { access: 'public', hidden: true, request: none },
  'POST /api/v1/auth/signin': {
    access: 'public',
    request: async () => ({ body: { email: email(), password: 'correct horse battery' } }),
  },

  'POST /api/v1/auth/token': {
    access: 'control',
    minimum: 'viewer',
    usersOnly: true,
    scope: 'ids',
    request: async (t) => ({ body: { workspace_id: t.workspaceId } }),
  },
  'GET /api/v1/me': { access: 'control', minimum: 'viewer', scope: 'credential', request: none },

  'GET /api/v1/workspaces/{id}': {
    access: 'control',
    minimum: 'viewer',
    scope: 'ids',
    request: async (t) => ({ params: ws(t) }),
  },
  'PUT /api/v1/workspaces/{id}/plan': {
    access: 'control',
    minimum: 'owner',
    scope: 'ids',
    // The plan it already has: allowed, and changes nothing.
    request: async (t) => ({ params: ws(t), body: { plan: await planOf(t) } }),
  },
  'PATCH /api/v1/workspaces/{id}/plan': {
    access: 'control',
    minimum: 'owner',
    scope: 'ids',
    request: async (t) => ({ params: ws(t), body: { plan: await planOf(t) } }),
  },
  'GET /api/v1/workspaces/{id}/usage': {
    access: 'control',
    minimum: 'viewer',
    scope: 'ids',
    request: async (t) => ({ params: ws(t) }),
  },

  'POST /api/v1/workspaces/{id}/api-keys': {
    access: 'control',
    minimum: 'admin',
    scope: 'ids',
    request: async (t) => ({ params: ws(t), body: { name: 'ci key', role: 'viewer' } }),
  },
  'GET /api/v1/workspaces/{id}/api-keys': {
    access: 'control',
    minimum: 'admin',
    scope: 'ids',
    request: async (t) => ({ params: ws(t) }),
  },
  'DELETE /api/v1/workspaces/{id}/api-keys/{key_id}': {
    access: 'control',
    minimum: 'admin',
    scope: 'ids',
    request: async (t) => ({ params: { ...ws(t), key_id: (await t.apiKey('viewer')).id } }),
  },

  'GET /api/v1/workspaces/{id}/members': {
    access: 'control',
    minimum: 'viewer',
    scope: 'ids',
    request: async (t) => ({ params: ws(t) }),
  },
  'POST /api/v1/workspaces/{id}/members': {
    access: 'control',
    minimum: 'admin',
    scope: 'ids',
    request: async (t) => ({ params: ws(t), body: { email: email(), role: 'viewer' } }),
    // The seeded workspace already has four members; hobby allows one.
    gate: { plan: 'pro' },
  },
  'PATCH /api/v1/workspaces/{id}/members/{member_id}': {
    access: 'control',
    minimum: 'admin',
    scope: 'ids',
    request: async (t) => ({
      params: { ...ws(t), member_id: t.members.viewer.memberId },
      body: { role: 'viewer' },
    }),
  },
  'DELETE /api/v1/workspaces/{id}/members/{member_id}': {
    access: 'control',
    minimum: 'admin',
    scope: 'ids',
    request: async (t) => ({ params: { ...ws(t), member_id: await t.invitation() } }),
  },

  'GET /api/v1/audit': {
    access: 'control',
    minimum: 'viewer',
    scope: 'ids',
    request: async (t) => ({ query: { app_id: (await t.app()).id } }),
    gate: { plan: 'team' },
  },
  'GET /api/v1/workspaces/{id}/audit/verify': {
    access: 'control',
    minimum: 'owner',
    scope: 'ids',
    request: async (t) => ({ params: ws(t) }),
    gate: { plan: 'team' },
  },

  'POST /api/v1/apps': {
    access: 'control',
    minimum: 'developer',
    scope: 'credential',
    request: async () => ({ body: { name: 'Another app' } }),
  },
  'GET /api/v1/apps': { access: 'control', minimum: 'viewer', scope: 'credential', request: none },
  'GET /api/v1/apps/{app_id}': {
    access: 'control',
    minimum: 'viewer',
    scope: 'ids',
    request: async (t) => ({ params: await app(t) }),
  },
  'POST /api/v1/apps/{app_id}/fingerprints': {
    access: 'control',
    minimum: 'developer',
    scope: 'ids',
    request: async (t) => ({ params: await app(t), body: { fingerprint: 'ios-2.3.1+45' } }),
  },
  'PUT /api/v1/apps/{app_id}/bundles': {
    access: 'control',
    minimum: 'developer',
    scope: 'ids',
    request: async (t) => ({ params: await app(t), raw: randomBytes(256) }),
  },

  'POST /api/v1/modules': {
    access: 'control',
    minimum: 'developer',
    scope: 'ids',
    request: async (t) => ({
      body: { app_id: (await t.app()).id, version: '2.0.0', sha256: await t.bundle() },
    }),
    gate: {
      plan: 'pro',
      request: async (t) => ({
        body: { app_id: (await t.app()).id, version: '2.0.0', sha256: await t.bundle(), rollout_pct: 50 },
      }),
    },
  },
  'GET /api/v1/apps/{app_id}/modules': {
    access: 'control',
    minimum: 'viewer',
    scope: 'ids',
    request: async (t) => ({ params: await app(t) }),
  },
  'GET /api/v1/modules/{module_id}': {
    access: 'control',
    minimum: 'viewer',
    scope: 'ids',
    request: async (t) => ({ params: await releaseParams(t) }),
  },
  'PUT /api/v1/modules/{module_id}/rollout': {
    access: 'control',
    minimum: 'developer',
    scope: 'ids',
    request: async (t) => ({ params: await releaseParams(t), body: { rollout_pct: 100 } }),
    gate: { plan: 'pro' },
  },
  'PATCH /api/v1/modules/{module_id}/rollout': {
    access: 'control',
    minimum: 'developer',
    scope: 'ids',
    request: async (t) => ({ params: await releaseParams(t), body: { rollout_pct: 100 } }),
    gate: { plan: 'pro' },
  },
  'POST /api/v1/modules/{module_id}/rollback': {
    access: 'control',
    minimum: 'developer',
    scope: 'ids',
    request: async (t) => ({ params: { module_id: await t.rollbackable() } }),
  },
};

async function planOf(t: Tenant): Promise<string> {
  const { rows } = await t.ctx.deps.db.query('SELECT plan FROM workspaces WHERE id = $1', [t.workspaceId]);
  return rows[0].plan;
}
