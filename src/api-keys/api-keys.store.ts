import type { Role } from '../access/principal.js';
import type { Queryable } from '../platform/postgres.js';

export type KeyRole = Exclude<Role, 'owner'>;

/** Key roles from least to most: a key is capped at its maker's role by position in this list. */
export const KEY_ROLES_RANKED: readonly KeyRole[] = ['viewer', 'developer', 'admin'];

export interface ApiKeyRow {
  id: string;
  name: string;
  role: KeyRole;
  created_at: Date;
  last_used_at: Date | null;
  /** The member whose key it is (the user who made it, or made the key it was made with). */
  created_by: { id: string; email: string } | null;
  /** The apps the key is limited to; null: every app and the workspace-wide resources. */
  app_ids: string[] | null;
  /** When the key stops working; null: never. */
  expires_at: Date | null;
}

/** What a key is limited to (key-scope.ts): some apps, and a time it stops working. */
export interface KeyScope {
  appIds: string[] | null;
  expiresAt: Date | null;
}

/** A live key about to expire, named in the weekly `api_key.expiring` event. */
export interface ExpiringKey {
  id: string;
  workspace_id: string;
  name: string;
  expires_at: Date;
  app_ids: string[] | null;
}

export interface LiveKey {
  id: string;
  workspace_id: string;
  role: KeyRole;
  created_by: string | null;
}

/** A live key as authentication reads it: with its name and its maker's e-mail, for the audit log. */
export interface AuthenticatedKey extends LiveKey {
  name: string;
  creator_email: string | null;
  app_ids: string[] | null;
  expires_at: Date | null;
}

/** A key a revocation ended: what its audit entry and a reset's answer name. */
export interface RevokedKey {
  id: string;
  name: string;
  workspace_id: string;
}

/** API keys (their hashes), scoped to a workspace, revoked rather than deleted. */
export interface ApiKeysStore {
  insert(
    tx: Queryable,
    input: { workspaceId: string; name: string; role: KeyRole; keyHash: string; createdBy: string | null },
  ): Promise<ApiKeyRow>;
  /** The workspace's live keys, newest first. */
  list(workspaceId: string): Promise<ApiKeyRow[]>;
  /** The live key of the workspace this call revoked; undefined when there was none. */
  revoke(tx: Queryable, workspaceId: string, keyId: string): Promise<RevokedKey | undefined>;
  /** Revokes every live key the user made in the workspace (its removal); sorted by id. */
  revokeMadeBy(tx: Queryable, workspaceId: string, userId: string): Promise<RevokedKey[]>;
  /** Revokes every live key the user made, in every workspace (a password reset); sorted by id. */
  revokeAllMadeBy(tx: Queryable, userId: string): Promise<RevokedKey[]>;
  /** Lowers the user's live keys that rank above `role` to it (a role change); their ids, sorted. */
  capMadeBy(tx: Queryable, workspaceId: string, userId: string, role: KeyRole): Promise<string[]>;
  /** The live key, locked against revocation and role changes until the transaction ends. */
  lockLive(tx: Queryable, keyId: string): Promise<LiveKey | undefined>;
  /**
   * The live key of this hash. Its maker must still be a member of the workspace, and the key acts at most
   * with the maker's role: removal and role changes already revoke and cap keys, and this holds even for
   * keys older than that rule.
   */
  findLive(keyHash: string): Promise<AuthenticatedKey | undefined>;
  /** Records use at most once a minute per key, so authentication is not a write per request. */
  touch(keyId: string): Promise<void>;
  /** Limits a key just made (in the transaction that made it) to apps and an expiry. */
  setScope(tx: Queryable, keyId: string, scope: KeyScope): Promise<void>;
  /** Which of `appIds` are apps of the workspace. */
  appsOfWorkspace(tx: Queryable, workspaceId: string, appIds: string[]): Promise<string[]>;
  /**
   * Live keys expiring before `before` that no expiry event named yet, marked as named in `tx` (the
   * events are written in the same transaction), at most `limit`.
   */
  takeExpiring(tx: Queryable, before: Date, limit: number): Promise<ExpiringKey[]>;
}
