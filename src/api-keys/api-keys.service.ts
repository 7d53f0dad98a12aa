import { generateApiKey } from '../auth/api-key-secret.js';
import { type Principal, requireOwnWorkspace, requireRole } from '../auth/principal.js';
import { notFound } from '../platform/errors.js';
import type { ApiKeyRow, ApiKeysStore } from './api-keys.store.js';

export class ApiKeysService {
  constructor(private readonly store: ApiKeysStore) {}

  async create(
    principal: Principal,
    workspaceId: string,
    input: { name: string; role?: ApiKeyRow['role'] },
  ): Promise<ApiKeyRow & { key: string }> {
    requireOwnWorkspace(principal, workspaceId);
    requireRole(principal, 'admin', 'Creating API keys');
    const { key, hash } = generateApiKey();
    const row = await this.store.insert(
      workspaceId,
      input.name,
      input.role ?? 'admin',
      hash,
      principal.userId,
    );
    return { ...row, key };
  }

  async list(principal: Principal, workspaceId: string): Promise<ApiKeyRow[]> {
    requireOwnWorkspace(principal, workspaceId);
    requireRole(principal, 'admin', 'Listing API keys');
    return this.store.list(workspaceId);
  }

  async revoke(principal: Principal, workspaceId: string, keyId: string): Promise<void> {
    requireOwnWorkspace(principal, workspaceId);
    requireRole(principal, 'admin', 'Revoking API keys');
    if (!(await this.store.revoke(workspaceId, keyId))) throw notFound('API key');
  }
}
