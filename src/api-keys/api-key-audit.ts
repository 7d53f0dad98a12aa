import type { ApiKeyRef } from '../access/principal.js';
import type { AuditStore } from '../audit/audit.store.js';
import type { Queryable } from '../platform/postgres.js';
import type { ApiKeysStore, KeyRole, RevokedKey } from './api-keys.store.js';

/** Who made a change to keys: an e-mail or `api-key` (with the key), as every audit entry names it. */
export interface KeyActor {
  actor: string;
  apiKey?: ApiKeyRef | undefined;
}

/** Why a key stopped working: the API's DELETE, its maker's removal, or a password reset of its maker. */
export type RevokeReason = 'revoked' | 'member_removed' | 'password_reset';

/** `api_key.create` in the key's workspace, inside the transaction that wrote the key. */
export function auditKeyCreated(
  audit: Pick<AuditStore, 'append'>,
  tx: Queryable,
  by: KeyActor,
  key: { id: string; name: string; role: KeyRole; workspace_id: string },
): Promise<void> {
  return audit.append(tx, {
    workspaceId: key.workspace_id,
    ...by,
    action: 'api_key.create',
    details: { key_id: key.id, name: key.name, role: key.role },
  });
}

/** One `api_key.revoke` per key, each in its own workspace, inside the transaction that revoked them. */
export async function auditKeysRevoked(
  audit: Pick<AuditStore, 'append'>,
  tx: Queryable,
  by: KeyActor,
  keys: readonly RevokedKey[],
  reason: RevokeReason,
): Promise<void> {
  for (const key of keys) {
    await audit.append(tx, {
      workspaceId: key.workspace_id,
      ...by,
      action: 'api_key.revoke',
      details: { key_id: key.id, name: key.name, reason },
    });
  }
}

/**
 * Ends every API key the user made, in every workspace, audited in each: a password reset's part in
 * taking an account back. Whoever held the account before the reset (a squatter, a thief) may have made
 * keys; they are credentials of the old password and go with it.
 */
export async function revokeKeysOnReset(
  stores: { apiKeys: Pick<ApiKeysStore, 'revokeAllMadeBy'>; audit: Pick<AuditStore, 'append'> },
  tx: Queryable,
  user: { id: string; email: string },
): Promise<RevokedKey[]> {
  const ended = await stores.apiKeys.revokeAllMadeBy(tx, user.id);
  await auditKeysRevoked(stores.audit, tx, { actor: user.email }, ended, 'password_reset');
  return ended;
}
