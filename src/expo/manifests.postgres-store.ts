import type { Queryable } from '../platform/postgres.js';
import type { ExpoRouteRow } from './expo.route.js';
import { EXPO_ROUTE_LIMIT } from './expo.route.js';
import {
  type DraftRow,
  type EmbeddedUpdate,
  expoAssetFilesOf,
  type ManifestPart,
  type ManifestsStore,
  type ReleaseOfApp,
  type StoredPart,
} from './manifests.store.js';

/** release_manifests, expo_assets, expo_embedded_updates and release_drafts: the only SQL writing them. */
export class PostgresManifestsStore implements ManifestsStore {
  constructor(private readonly db: Queryable) {}

  async insertParts(q: Queryable, release: ReleaseOfApp, parts: readonly StoredPart[]): Promise<void> {
    for (const p of parts) {
      await q.query(
        `INSERT INTO release_manifests (release_id, part, body, signature, key_id) VALUES ($1, $2, $3, $4, $5)`,
        [release.id, p.part, p.body, p.signature, p.keyId],
      );
    }
    const files = expoAssetFilesOf(parts);
    if (files.length > 0) {
      await q.query(
        `INSERT INTO expo_assets (app_id, file) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
        [release.app_id, files],
      );
    }
  }

  async insertEmbedded(q: Queryable, releaseId: string, updates: readonly EmbeddedUpdate[]): Promise<void> {
    for (const u of updates) {
      await q.query(
        `INSERT INTO expo_embedded_updates (release_id, platform, update_id, launch_asset) VALUES ($1, $2, $3, $4)`,
        [releaseId, u.platform, u.update_id, u.launch_asset],
      );
    }
  }

  async expoAssetFiles(appId: string, limit: number): Promise<string[]> {
    const { rows } = await this.db.query<{ file: string }>(
      'SELECT file FROM expo_assets WHERE app_id = $1 LIMIT $2',
      [appId, limit],
    );
    return rows.map((r) => r.file);
  }

  async expoAssetReferenced(appId: string | null, file: string): Promise<boolean> {
    const { rows } =
      appId === null
        ? await this.db.query('SELECT 1 FROM expo_assets WHERE file = $1 LIMIT 1', [file])
        : await this.db.query('SELECT 1 FROM expo_assets WHERE app_id = $1 AND file = $2', [appId, file]);
    return rows.length > 0;
  }

  async parts(releaseId: string): Promise<StoredPart[]> {
    const { rows } = await this.db.query<{
      part: ManifestPart;
      body: Buffer;
      signature: string | null;
      key_id: string | null;
    }>('SELECT part, body, signature, key_id FROM release_manifests WHERE release_id = $1 ORDER BY part', [
      releaseId,
    ]);
    return rows.map((r) => ({ part: r.part, body: r.body, signature: r.signature, keyId: r.key_id }));
  }

  /**
   * The app's newest Expo releases (those with a directive part), one row per part, newest first: what the
   * routing cache holds of them.
   */
  async expoRouteRows(appId: string): Promise<ExpoRouteRow[]> {
    const { rows } = await this.db.query<ExpoRouteRow>(
      `WITH expo AS (
         SELECT r.id, r.seq FROM releases r
          WHERE r.app_id = $1
            AND EXISTS (SELECT 1 FROM release_manifests d WHERE d.release_id = r.id AND d.part = 'directive')
          ORDER BY r.seq DESC LIMIT $2)
       SELECT r.id, r.channel, r.version, r.rollout_pct, r.mandatory, r.notes, r.sha256, r.size,
              r.fingerprint, r.active, r.paused, r.created_at, m.part, m.body, m.signature, m.key_id
         FROM expo JOIN releases r ON r.id = expo.id
         JOIN release_manifests m ON m.release_id = r.id AND m.part IN ('ios', 'android', 'directive')
        ORDER BY expo.seq DESC, m.part`,
      [appId, EXPO_ROUTE_LIMIT],
    );
    return rows;
  }

  async insertDraft(
    q: Queryable,
    draft: Omit<DraftRow, 'expires_at'>,
    ttlSeconds: number,
  ): Promise<DraftRow> {
    // Drafts nobody completed are cleared here, in passing: there are few, and only pushes write them.
    await q.query(`DELETE FROM release_drafts WHERE expires_at < now() - interval '1 day'`);
    const { rows } = await q.query<Omit<DraftRow, 'push'>>(
      `INSERT INTO release_drafts (id, workspace_id, app_id, key_id, push, parts, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8))
       RETURNING id, workspace_id, app_id, key_id, parts, created_at, expires_at`,
      [
        draft.id,
        draft.workspace_id,
        draft.app_id,
        draft.key_id,
        JSON.stringify(draft.push),
        JSON.stringify(draft.parts),
        draft.created_at,
        ttlSeconds,
      ],
    );
    return { ...rows[0]!, push: draft.push };
  }

  /** A draft of the workspace that has not expired, or undefined. */
  async findDraft(workspaceId: string, id: string): Promise<DraftRow | undefined> {
    const { rows } = await this.db.query<Omit<DraftRow, 'push'> & { push: string }>(
      `SELECT id, workspace_id, app_id, key_id, push, parts, created_at, expires_at FROM release_drafts
        WHERE id = $1 AND workspace_id = $2 AND expires_at > now()`,
      [id, workspaceId],
    );
    const row = rows[0];
    return row && { ...row, push: JSON.parse(row.push) };
  }

  /** Removes the draft as it becomes a release; false when it was taken (or expired) meanwhile. */
  async takeDraft(q: Queryable, workspaceId: string, id: string): Promise<boolean> {
    const { rowCount } = await q.query(
      'DELETE FROM release_drafts WHERE id = $1 AND workspace_id = $2 AND expires_at > now()',
      [id, workspaceId],
    );
    return rowCount === 1;
  }
}
