import { badRequest } from '../platform/errors.js';
import type { Queryable } from '../platform/postgres.js';
import type { ApiKeysStore, KeyScope } from './api-keys.store.js';

/** A key for a machine lives at most this long (API.md "API keys"). */
export const MAX_KEY_LIFETIME_MS = 366 * 24 * 3600_000;
/** At most this many apps per key. */
export const MAX_KEY_APPS = 100;

/** What a caller asks a new key to be limited to. */
export interface KeyScopeInput {
  app_ids?: string[] | undefined;
  expires_at?: string | undefined;
}

/**
 * Checks and stores the limits of a key just made, in the transaction that made it: every app must be
 * one of the workspace's (another workspace's app is as unknown as a made-up id), and the expiry must be
 * in the future and at most a year away.
 */
export async function applyKeyScope(
  store: ApiKeysStore,
  tx: Queryable,
  workspaceId: string,
  keyId: string,
  input: KeyScopeInput,
  now: number = Date.now(),
): Promise<KeyScope> {
  const scope: KeyScope = { appIds: null, expiresAt: expiryOf(input.expires_at, now) };
  if (input.app_ids !== undefined) {
    const wanted = [...new Set(input.app_ids.map((id) => id.toLowerCase()))];
    if (wanted.length === 0 || wanted.length > MAX_KEY_APPS)
      throw badRequest(`app_ids names 1 to ${MAX_KEY_APPS} apps.`, 'invalid_app_ids');
    const own = new Set(await store.appsOfWorkspace(tx, workspaceId, wanted));
    const unknown = wanted.filter((id) => !own.has(id));
    if (unknown.length > 0)
      throw badRequest(`No app of this workspace has the id ${unknown[0]}.`, 'invalid_app_ids');
    scope.appIds = wanted.sort();
  }
  if (scope.appIds || scope.expiresAt) await store.setScope(tx, keyId, scope);
  return scope;
}

function expiryOf(value: string | undefined, now: number): Date | null {
  if (value === undefined) return null;
  const at = Date.parse(value);
  if (!Number.isFinite(at)) throw badRequest('expires_at must be an ISO 8601 time.', 'invalid_expiry');
  if (at <= now) throw badRequest('expires_at must be in the future.', 'invalid_expiry');
  if (at - now > MAX_KEY_LIFETIME_MS)
    throw badRequest('expires_at must be at most a year away.', 'invalid_expiry');
  return new Date(at);
}

/** Whether a key past its expiry: refused from that instant on. */
export function keyExpired(expiresAt: Date | null, now: number = Date.now()): boolean {
  return expiresAt !== null && expiresAt.getTime() <= now;
}
