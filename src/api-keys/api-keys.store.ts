import type { Role } from '../auth/principal.js';
import type { Queryable } from '../platform/postgres.js';

export interface ApiKeyRow {
  id: string;
  name: string;
  role: Exclude<Role, 'owner'>;
  created_at: Date;
  last_used_at: Date | null;
}

export class ApiKeysStore {
  constructor(private readonly db: Queryable) {}

  async insert(
    workspaceId: string,
    name: string,
    role: ApiKeyRow['role'],
    keyHash: string,
    createdBy: string | null,
  ): Promise<ApiKeyRow> {
    const { rows } = await this.db.query<ApiKeyRow>(
      `INSERT INTO api_keys (workspace_id, name, role, key_hash, created_by) VALUES ($1, $2, $3, $4, $5)
       RETURNING id, name, role, created_at, last_used_at`,
      [workspaceId, name, role, keyHash, createdBy],
    );
    return rows[0]!;
  }

  async list(workspaceId: string): Promise<ApiKeyRow[]> {
    const { rows } = await this.db.query<ApiKeyRow>(
      `SELECT id, name, role, created_at, last_used_at FROM api_keys
        WHERE workspace_id = $1 AND revoked_at IS NULL ORDER BY created_at DESC, id`,
      [workspaceId],
    );
    return rows;
  }

  /** True when a live key of the workspace was revoked by this call. */
  async revoke(workspaceId: string, keyId: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE api_keys SET revoked_at = now() WHERE workspace_id = $1 AND id = $2 AND revoked_at IS NULL`,
      [workspaceId, keyId],
    );
    return rowCount === 1;
  }

  async findLive(
    keyHash: string,
  ): Promise<{ id: string; workspace_id: string; role: ApiKeyRow['role'] } | undefined> {
    const { rows } = await this.db.query<{ id: string; workspace_id: string; role: ApiKeyRow['role'] }>(
      'SELECT id, workspace_id, role FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
      [keyHash],
    );
    return rows[0];
  }

  /** Records use at most once a minute per key, so authentication is not a write per request. */
  async touch(keyId: string): Promise<void> {
    await this.db.query(
      `UPDATE api_keys SET last_used_at = now()
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [keyId],
    );
  }
}
