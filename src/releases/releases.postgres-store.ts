import type { Queryable } from '../platform/postgres.js';
import type {
  NewRelease,
  ReleaseNameRef,
  ReleaseRow,
  ReleaseScope,
  ReleasesStore,
} from './releases.store.js';

const COLUMNS = `id, seq, workspace_id, app_id, version, channel, rollout_pct, mandatory, notes, sha256, size,
  fingerprint, target_binary_range, active, rolled_back_at, created_at, capacitor_checksum,
  capacitor_session_key, capacitor_key_id, paused, promoted_from, promoted_from_channel, crc32`;

export class PostgresReleasesStore implements ReleasesStore {
  constructor(private readonly db: Queryable) {}

  async insert(tx: Queryable, r: NewRelease): Promise<ReleaseRow> {
    const { rows } = await tx.query<ReleaseRow>(
      `INSERT INTO releases (workspace_id, app_id, version, channel, rollout_pct, mandatory, notes, sha256,
                             size, fingerprint, target_binary_range, id, created_at, capacitor_checksum,
                             capacitor_session_key, capacitor_key_id, promoted_from, promoted_from_channel, crc32)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, coalesce($12::uuid, gen_random_uuid()),
               coalesce($13::timestamptz, now()), $14, $15, $16, $17, $18, $19) RETURNING ${COLUMNS}`,
      [
        r.workspaceId,
        r.appId,
        r.version,
        r.channel,
        r.rolloutPct,
        r.mandatory,
        r.notes,
        r.sha256,
        r.size,
        r.fingerprint,
        r.targetBinaryRange,
        r.id ?? null,
        r.createdAt ?? null,
        r.capacitor?.checksum ?? null,
        r.capacitor?.sessionKey ?? null,
        r.capacitor?.keyId ?? null,
        r.promotedFrom?.id ?? null,
        r.promotedFrom?.channel ?? null,
        r.crc32 ?? null,
      ],
    );
    return rows[0]!;
  }

  async find(workspaceId: string, id: string, q: Queryable = this.db): Promise<ReleaseRow | undefined> {
    const { rows } = await q.query<ReleaseRow>(
      `SELECT ${COLUMNS} FROM releases WHERE id = $1 AND workspace_id = $2`,
      [id, workspaceId],
    );
    return rows[0];
  }

  async findMany(workspaceId: string, ids: readonly string[]): Promise<ReleaseRow[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.db.query<ReleaseRow>(
      `SELECT ${COLUMNS} FROM releases WHERE id = ANY($1::uuid[]) AND workspace_id = $2`,
      [ids, workspaceId],
    );
    return rows;
  }

  async findVersion(
    appId: string,
    channel: string,
    version: string,
    q: Queryable = this.db,
  ): Promise<ReleaseRow | undefined> {
    const { rows } = await q.query<ReleaseRow>(
      `SELECT ${COLUMNS} FROM releases
        WHERE app_id = $1 AND channel = $2 AND version = $3 AND withdrawn_at IS NULL
        ORDER BY seq DESC LIMIT 1`,
      [appId, channel, version],
    );
    return rows[0];
  }

  async lookup(
    workspaceId: string,
    ref: ReleaseNameRef,
    scope: ReleaseScope,
    limit: number,
  ): Promise<ReleaseRow[]> {
    // left(…) = prefix rather than LIKE: the prefix is matched as text, never as a pattern.
    const { rows } = await this.db.query<ReleaseRow>(
      `SELECT ${COLUMNS} FROM releases
        WHERE workspace_id = $1
          AND (version = $2 OR ($3::text IS NOT NULL AND left(id::text, length($3)) = $3))
          AND ($4::uuid IS NULL OR app_id = $4) AND ($5::text IS NULL OR channel = $5)
        ORDER BY seq DESC LIMIT $6`,
      [workspaceId, ref.version, ref.idPrefix, scope.appId ?? null, scope.channel ?? null, limit],
    );
    return rows;
  }

  async list(
    appId: string,
    channel: string | undefined,
    limit: number,
    offset: number,
  ): Promise<ReleaseRow[]> {
    const { rows } = await this.db.query<ReleaseRow>(
      `SELECT ${COLUMNS} FROM releases
        WHERE app_id = $1 AND ($2::text IS NULL OR channel = $2)
        ORDER BY seq DESC LIMIT $3 OFFSET $4`,
      [appId, channel ?? null, limit + 1, offset],
    );
    return rows;
  }

  async setRollout(tx: Queryable, id: string, rolloutPct: number): Promise<ReleaseRow> {
    const { rows } = await tx.query<ReleaseRow>(
      `UPDATE releases SET rollout_pct = $2 WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, rolloutPct],
    );
    return rows[0]!;
  }

  async setPaused(tx: Queryable, id: string, paused: boolean): Promise<ReleaseRow> {
    const { rows } = await tx.query<ReleaseRow>(
      `UPDATE releases SET paused = $2 WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, paused],
    );
    return rows[0]!;
  }

  async previousActive(
    appId: string,
    channel: string,
    beforeSeq: number,
    q: Queryable = this.db,
  ): Promise<ReleaseRow | undefined> {
    const { rows } = await q.query<ReleaseRow>(
      `SELECT ${COLUMNS} FROM releases
        WHERE app_id = $1 AND channel = $2 AND active AND seq < $3
        ORDER BY seq DESC LIMIT 1`,
      [appId, channel, beforeSeq],
    );
    return rows[0];
  }

  async deactivate(tx: Queryable, id: string): Promise<ReleaseRow> {
    const { rows } = await tx.query<ReleaseRow>(
      `UPDATE releases SET active = false, rolled_back_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
      [id],
    );
    return rows[0]!;
  }
}
