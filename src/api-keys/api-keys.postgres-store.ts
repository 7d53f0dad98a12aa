import type { Queryable } from '../platform/postgres.js';
import {
  type ApiKeyRow,
  type ApiKeysStore,
  type AuthenticatedKey,
  type ExpiringKey,
  KEY_ROLES_RANKED,
  type KeyRole,
  type KeyScope,
  type LiveKey,
  type RevokedKey,
} from './api-keys.store.js';

// The ranking as a SQL array literal (fixed words, no input).
const RANKED = `ARRAY[${KEY_ROLES_RANKED.map((r) => `'${r}'`).join(', ')}]`;

const LISTED = `k.id, k.name, k.role, k.created_at, k.last_used_at, k.app_ids::text[] AS app_ids, k.expires_at,
  CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id, 'email', u.email) END AS created_by`;

const REVOKED = 'id, name, workspace_id';
const byId = (keys: RevokedKey[]) => keys.sort((a, b) => a.id.localeCompare(b.id));

export class PostgresApiKeysStore implements ApiKeysStore {
  constructor(private readonly db: Queryable) {}

  async insert(
    tx: Queryable,
    input: { workspaceId: string; name: string; role: KeyRole; keyHash: string; createdBy: string | null },
  ): Promise<ApiKeyRow> {
    const { rows } = await tx.query<ApiKeyRow>(
      `WITH k AS (
         INSERT INTO api_keys (workspace_id, name, role, key_hash, created_by) VALUES ($1, $2, $3, $4, $5)
         RETURNING id, name, role, created_at, last_used_at, created_by, app_ids, expires_at
       )
       SELECT ${LISTED} FROM k LEFT JOIN users u ON u.id = k.created_by`,
      [input.workspaceId, input.name, input.role, input.keyHash, input.createdBy],
    );
    return rows[0]!;
  }

  async list(workspaceId: string): Promise<ApiKeyRow[]> {
    const { rows } = await this.db.query<ApiKeyRow>(
      `SELECT ${LISTED} FROM api_keys k LEFT JOIN users u ON u.id = k.created_by
        WHERE k.workspace_id = $1 AND k.revoked_at IS NULL ORDER BY k.created_at DESC, k.id`,
      [workspaceId],
    );
    return rows;
  }

  async revoke(tx: Queryable, workspaceId: string, keyId: string): Promise<RevokedKey | undefined> {
    const { rows } = await tx.query<RevokedKey>(
      `UPDATE api_keys SET revoked_at = now() WHERE workspace_id = $1 AND id = $2 AND revoked_at IS NULL
       RETURNING ${REVOKED}`,
      [workspaceId, keyId],
    );
    return rows[0];
  }

  async revokeMadeBy(tx: Queryable, workspaceId: string, userId: string): Promise<RevokedKey[]> {
    const { rows } = await tx.query<RevokedKey>(
      `UPDATE api_keys SET revoked_at = now()
        WHERE workspace_id = $1 AND created_by = $2 AND revoked_at IS NULL RETURNING ${REVOKED}`,
      [workspaceId, userId],
    );
    return byId(rows);
  }

  async revokeAllMadeBy(tx: Queryable, userId: string): Promise<RevokedKey[]> {
    const { rows } = await tx.query<RevokedKey>(
      `UPDATE api_keys SET revoked_at = now() WHERE created_by = $1 AND revoked_at IS NULL RETURNING ${REVOKED}`,
      [userId],
    );
    return byId(rows);
  }

  /** Lowers the user's live keys that rank above `role` to it (a role change); their ids, sorted. */
  async capMadeBy(tx: Queryable, workspaceId: string, userId: string, role: KeyRole): Promise<string[]> {
    const { rows } = await tx.query<{ id: string }>(
      `UPDATE api_keys SET role = $3
        WHERE workspace_id = $1 AND created_by = $2 AND revoked_at IS NULL
          AND array_position(${RANKED}, role) > array_position(${RANKED}, $3::text)
        RETURNING id`,
      [workspaceId, userId, role],
    );
    return rows.map((r) => r.id).sort();
  }

  /** The live key, locked against revocation and role changes until the transaction ends. */
  async lockLive(tx: Queryable, keyId: string): Promise<LiveKey | undefined> {
    const { rows } = await tx.query<LiveKey>(
      `SELECT id, workspace_id, role, created_by FROM api_keys WHERE id = $1 AND revoked_at IS NULL FOR SHARE`,
      [keyId],
    );
    return rows[0];
  }

  /**
   * The live key of this hash. Its maker must still be a member of the workspace, and the key acts at most
   * with the maker's role: removal and role changes already revoke and cap keys, and this holds even for
   * keys older than that rule.
   */
  async findLive(keyHash: string): Promise<AuthenticatedKey | undefined> {
    const { rows } = await this.db.query<AuthenticatedKey>(
      `SELECT k.id, k.workspace_id, k.created_by, k.name, u.email AS creator_email,
              k.app_ids::text[] AS app_ids, k.expires_at,
              CASE WHEN m.role IS NULL OR m.role = 'owner'
                     OR array_position(${RANKED}, k.role) <= array_position(${RANKED}, m.role)
                   THEN k.role ELSE m.role END AS role
         FROM api_keys k
         LEFT JOIN members m ON m.workspace_id = k.workspace_id AND m.user_id = k.created_by
         LEFT JOIN users u ON u.id = k.created_by
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND (k.created_by IS NULL OR m.id IS NOT NULL)`,
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

  async setScope(tx: Queryable, keyId: string, scope: KeyScope): Promise<void> {
    await tx.query(`UPDATE api_keys SET app_ids = $2::uuid[], expires_at = $3 WHERE id = $1`, [
      keyId,
      scope.appIds,
      scope.expiresAt,
    ]);
  }

  async appsOfWorkspace(tx: Queryable, workspaceId: string, appIds: string[]): Promise<string[]> {
    const { rows } = await tx.query<{ id: string }>(
      `SELECT id FROM apps WHERE workspace_id = $1 AND id = ANY($2::uuid[])`,
      [workspaceId, appIds],
    );
    return rows.map((r) => r.id);
  }

  async takeExpiring(tx: Queryable, before: Date, limit: number): Promise<ExpiringKey[]> {
    const { rows } = await tx.query<ExpiringKey>(
      `UPDATE api_keys SET expiry_notified_at = now()
        WHERE id IN (SELECT id FROM api_keys
                      WHERE revoked_at IS NULL AND expiry_notified_at IS NULL
                        AND expires_at IS NOT NULL AND expires_at > now() AND expires_at <= $1
                      ORDER BY expires_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
        RETURNING id, workspace_id, name, expires_at, app_ids::text[] AS app_ids`,
      [before, limit],
    );
    return rows;
  }
}
