import type { Plan } from '../plans/plans.js';
import type { Queryable } from '../platform/postgres.js';

export interface ReleaseRow {
  id: string;
  seq: number;
  workspace_id: string;
  app_id: string;
  version: string;
  channel: string;
  rollout_pct: number;
  mandatory: boolean;
  notes: string;
  sha256: string;
  size: number;
  fingerprint: string | null;
  target_binary_range: string | null;
  active: boolean;
  rolled_back_at: Date | null;
  created_at: Date;
}

export interface NewRelease {
  workspaceId: string;
  appId: string;
  version: string;
  channel: string;
  rolloutPct: number;
  mandatory: boolean;
  notes: string;
  sha256: string;
  size: number;
  fingerprint: string | null;
  targetBinaryRange: string | null;
  /** Given by a signed push, whose signed bytes name them; otherwise drawn by the database. */
  id?: string;
  createdAt?: Date;
}

const COLUMNS = `id, seq, workspace_id, app_id, version, channel, rollout_pct, mandatory, notes, sha256, size,
  fingerprint, target_binary_range, active, rolled_back_at, created_at`;

/** Releases ("modules"). Order on a channel is `seq`: a later push always has a larger one. */
export class ReleasesStore {
  constructor(private readonly db: Queryable) {}

  async planOf(q: Queryable = this.db, workspaceId: string): Promise<Plan> {
    const { rows } = await q.query<{ plan: Plan }>('SELECT plan FROM workspaces WHERE id = $1', [
      workspaceId,
    ]);
    return rows[0]!.plan;
  }

  async insert(q: Queryable, r: NewRelease): Promise<ReleaseRow> {
    const { rows } = await q.query<ReleaseRow>(
      `INSERT INTO releases (workspace_id, app_id, version, channel, rollout_pct, mandatory, notes, sha256,
                             size, fingerprint, target_binary_range, id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, coalesce($12::uuid, gen_random_uuid()),
               coalesce($13::timestamptz, now())) RETURNING ${COLUMNS}`,
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
      ],
    );
    return rows[0]!;
  }

  /** A release of the workspace; another workspace's id is not found. */
  async find(workspaceId: string, id: string, q: Queryable = this.db): Promise<ReleaseRow | undefined> {
    const { rows } = await q.query<ReleaseRow>(
      `SELECT ${COLUMNS} FROM releases WHERE id = $1 AND workspace_id = $2`,
      [id, workspaceId],
    );
    return rows[0];
  }

  /** A release of the app and channel with exactly this version, old or new (versions are unique there). */
  async findVersion(
    q: Queryable = this.db,
    appId: string,
    channel: string,
    version: string,
  ): Promise<ReleaseRow | undefined> {
    const { rows } = await q.query<ReleaseRow>(
      `SELECT ${COLUMNS} FROM releases WHERE app_id = $1 AND channel = $2 AND version = $3
        ORDER BY seq DESC LIMIT 1`,
      [appId, channel, version],
    );
    return rows[0];
  }

  /**
   * Releases of the workspace whose version is `ref` or whose id starts with `ref` (lower-case), newest
   * first, at most `limit`; narrowed to an app and a channel when given.
   */
  async lookup(
    workspaceId: string,
    ref: { version: string; idPrefix: string | null },
    scope: { appId?: string | undefined; channel?: string | undefined },
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

  /** Newest first; `limit + 1` rows are read so the caller knows whether another page exists. */
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

  async setRollout(q: Queryable, id: string, rolloutPct: number): Promise<ReleaseRow> {
    const { rows } = await q.query<ReleaseRow>(
      `UPDATE releases SET rollout_pct = $2 WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, rolloutPct],
    );
    return rows[0]!;
  }

  /** The newest active release of the same app and channel pushed before the given one. */
  async previousActive(
    q: Queryable,
    appId: string,
    channel: string,
    beforeSeq: number,
  ): Promise<ReleaseRow | undefined> {
    const { rows } = await q.query<ReleaseRow>(
      `SELECT ${COLUMNS} FROM releases
        WHERE app_id = $1 AND channel = $2 AND active AND seq < $3
        ORDER BY seq DESC LIMIT 1`,
      [appId, channel, beforeSeq],
    );
    return rows[0];
  }

  async deactivate(q: Queryable, id: string): Promise<ReleaseRow> {
    const { rows } = await q.query<ReleaseRow>(
      `UPDATE releases SET active = false, rolled_back_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
      [id],
    );
    return rows[0]!;
  }
}
