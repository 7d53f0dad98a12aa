import {
  auditActor,
  type Principal,
  requireOwnWorkspace,
  requireRole,
  roleAtLeast,
} from '../access/principal.js';
import type { AuditStore } from '../audit/audit.store.js';
import type { MembersStore } from '../members/members.store.js';
import { forbidden, notFound, unauthorized } from '../platform/errors.js';
import type { Queryable, Transactional } from '../platform/postgres.js';
import { auditKeyCreated, auditKeysRevoked } from './api-key-audit.js';
import { generateApiKey } from './api-key-secret.js';
import type { ApiKeyRow, ApiKeysStore, KeyRole } from './api-keys.store.js';
import { applyKeyScope, type KeyScopeInput } from './key-scope.js';

/** The stores the API keys service works on. */
export interface ApiKeysStores {
  apiKeys: ApiKeysStore;
  members: MembersStore;
  audit: Pick<AuditStore, 'append'>;
  transaction: Transactional;
}

export function createApiKeysService(stores: ApiKeysStores): ApiKeysService {
  return new ApiKeysService(stores);
}

/**
 * API keys belong to the member who made them: a key made with a key belongs to that key's maker. Removing
 * the member revokes them and a role change caps them (MembersService), so a key never outlives or outranks
 * the person it stands for.
 */
export class ApiKeysService {
  private readonly store: ApiKeysStore;

  constructor(private readonly stores: ApiKeysStores) {
    this.store = stores.apiKeys;
  }

  async create(
    principal: Principal,
    workspaceId: string,
    input: { name: string; role?: KeyRole } & KeyScopeInput,
  ): Promise<ApiKeyRow & { key: string }> {
    requireOwnWorkspace(principal, workspaceId);
    requireRole(principal, 'admin', 'Creating API keys');
    const { key, hash } = generateApiKey();
    const row = await this.stores.transaction(async (tx) => {
      const maker = await this.lockMaker(tx, principal);
      const made = await this.store.insert(tx, {
        workspaceId,
        name: input.name,
        role: input.role ?? 'admin',
        keyHash: hash,
        createdBy: maker,
      });
      const scoped = await this.limited(tx, workspaceId, made, input);
      await auditKeyCreated(this.stores.audit, tx, auditActor(principal), {
        ...scoped,
        workspace_id: workspaceId,
      });
      return scoped;
    });
    return { ...row, key };
  }

  /** The new key limited to the apps and the expiry asked for (key-scope.ts). */
  private async limited(
    tx: Queryable,
    workspaceId: string,
    row: ApiKeyRow,
    input: KeyScopeInput,
  ): Promise<ApiKeyRow> {
    const scope = await applyKeyScope(this.store, tx, workspaceId, row.id, input);
    return { ...row, app_ids: scope.appIds, expires_at: scope.expiresAt };
  }

  /**
   * Who the new key will belong to, held until the key is written: a removal or demotion of that member
   * running now either finishes first (and this call is refused) or waits for the key and then revokes or
   * caps it with the others.
   */
  private async lockMaker(tx: Queryable, principal: Principal): Promise<string | null> {
    let userId = principal.userId;
    if (principal.kind === 'api-key') {
      const key = principal.apiKeyId ? await this.store.lockLive(tx, principal.apiKeyId) : undefined;
      if (!key) throw unauthorized('The API key is not valid or was revoked.', 'invalid_api_key');
      if (!roleAtLeast(key.role, 'admin'))
        throw forbidden('Creating API keys needs the admin role or higher.');
      userId = key.created_by;
      // A key from before keys had makers: nobody's, as it was.
      if (!userId) return null;
    }
    if (!userId) throw unauthorized();
    const member = await this.stores.members.lockMembership(tx, principal.workspaceId, userId);
    if (!member)
      throw unauthorized('This credential no longer grants access to its workspace.', 'membership_revoked');
    if (!roleAtLeast(member.role, 'admin')) {
      throw forbidden(`Creating API keys needs the admin role or higher; the role is ${member.role}.`);
    }
    return userId;
  }

  async list(principal: Principal, workspaceId: string): Promise<ApiKeyRow[]> {
    requireOwnWorkspace(principal, workspaceId);
    requireRole(principal, 'admin', 'Listing API keys');
    return this.store.list(workspaceId);
  }

  async revoke(principal: Principal, workspaceId: string, keyId: string): Promise<void> {
    requireOwnWorkspace(principal, workspaceId);
    requireRole(principal, 'admin', 'Revoking API keys');
    await this.stores.transaction(async (tx) => {
      const revoked = await this.store.revoke(tx, workspaceId, keyId);
      if (!revoked) throw notFound('API key');
      await auditKeysRevoked(this.stores.audit, tx, auditActor(principal), [revoked], 'revoked');
    });
  }
}
