import type { Queryable } from '../platform/postgres.js';
import type { BlobUsage, BundleRow, BundlesStore } from './bundles.store.js';

/** The advisory lock space of blobs (the second key of pg_advisory_xact_lock's hash). */
const BLOB_LOCK_SPACE = 3520;

export class PostgresBundlesStore implements BundlesStore {
  constructor(private readonly db: Queryable) {}

  async record(appId: string, sha256: string, size: number, q: Queryable = this.db): Promise<void> {
    await q.query(
      `INSERT INTO bundles (app_id, sha256, size) VALUES ($1, $2, $3)
       ON CONFLICT (app_id, sha256) DO UPDATE SET uploaded_at = now()`,
      [appId, sha256, size],
    );
  }

  async find(appId: string, sha256: string, q: Queryable = this.db): Promise<BundleRow | undefined> {
    const { rows } = await q.query<BundleRow>(
      'SELECT sha256, size FROM bundles WHERE app_id = $1 AND sha256 = $2',
      [appId, sha256],
    );
    return rows[0];
  }

  async lockBlob(tx: Queryable, sha256: string): Promise<void> {
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1::text, $2))', [sha256, BLOB_LOCK_SPACE]);
  }

  async usage(sha256: string, q: Queryable = this.db): Promise<BlobUsage> {
    // Expo manifests name their assets by URL, and every asset URL holds the asset's hex sha256; drafts
    // name their bundle in the push they hold; deltas (patches, diff packages, manifests) their blob, and a Capacitor manifest its files; an
    // embedded update its launch asset (a patch base).
    const { rows } = await q.query<{ last_upload_at: Date | null; referenced: boolean }>(
      `SELECT (SELECT max(uploaded_at) FROM bundles WHERE sha256 = $1) AS last_upload_at,
              EXISTS (SELECT FROM releases WHERE sha256 = $1)
           OR EXISTS (SELECT FROM release_manifests
                      WHERE part IN ('ios', 'android') AND position(convert_to($1, 'UTF8') IN body) > 0)
           OR EXISTS (SELECT FROM release_deltas WHERE blob_sha256 = $1)
           OR EXISTS (SELECT FROM capacitor_manifest_files WHERE blob_sha256 = $1)
           OR EXISTS (SELECT FROM expo_embedded_updates WHERE launch_asset = $1)
           OR EXISTS (SELECT FROM release_drafts
                      WHERE expires_at > now() AND (push LIKE '%' || $1 || '%' OR parts::text LIKE '%' || $1 || '%'))
             AS referenced`,
      [sha256],
    );
    return { lastUploadAt: rows[0]!.last_upload_at, referenced: rows[0]!.referenced };
  }

  async forget(tx: Queryable, sha256: string): Promise<void> {
    await tx.query('DELETE FROM bundles WHERE sha256 = $1', [sha256]);
  }
}
