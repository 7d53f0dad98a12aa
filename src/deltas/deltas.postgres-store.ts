import type { Queryable } from '../platform/postgres.js';
import type {
  DeltaRelease,
  DeltaRow,
  DeltasStore,
  EmbeddedBase,
  PackageRow,
  ServedDeltas,
  ServedRelease,
} from './deltas.store.js';
import { launchAssetsOf } from './launch-asset.js';

type ReleaseRecord = Omit<DeltaRelease, 'launch_assets' | 'size' | 'seq'> & {
  size: string | number;
  seq: string | number;
  parts: Array<{ part: string; body: string }> | null;
};

// A release with its Expo manifests (bytea as hex in JSON), read in one query.
const RELEASE_COLUMNS = `r.id, r.app_id, r.channel, r.seq, r.sha256, r.size, r.fingerprint,
  (SELECT json_agg(json_build_object('part', m.part, 'body', encode(m.body, 'hex')))
     FROM release_manifests m WHERE m.release_id = r.id AND m.part IN ('ios', 'android')) AS parts`;

/**
 * release_packages (written by a push, then by the deltas worker) and release_deltas (the worker only), and
 * the worker's reads of releases.
 */
export class PostgresDeltasStore implements DeltasStore {
  constructor(private readonly db: Queryable) {}

  async release(id: string): Promise<DeltaRelease | undefined> {
    const { rows } = await this.db.query<ReleaseRecord>(
      `SELECT ${RELEASE_COLUMNS} FROM releases r WHERE r.id = $1`,
      [id],
    );
    return rows[0] && toRelease(rows[0]);
  }

  async earlier(appId: string, channel: string, beforeSeq: number, limit: number): Promise<DeltaRelease[]> {
    const { rows } = await this.db.query<ReleaseRecord>(
      `SELECT ${RELEASE_COLUMNS} FROM releases r
        WHERE r.app_id = $1 AND r.channel = $2 AND r.seq < $3
        ORDER BY r.seq DESC LIMIT $4`,
      [appId, channel, beforeSeq, limit],
    );
    return rows.map(toRelease);
  }

  async embeddedBases(
    appId: string,
    fingerprint: string,
    uptoSeq: number,
    limit: number,
  ): Promise<EmbeddedBase[]> {
    const { rows } = await this.db.query<EmbeddedBase>(
      `SELECT platform, update_id, launch_asset FROM (
         SELECT platform, update_id, launch_asset, newest,
                row_number() OVER (PARTITION BY platform ORDER BY newest DESC, update_id) AS n
           FROM (SELECT e.platform, e.update_id, (array_agg(e.launch_asset ORDER BY r.seq DESC))[1] AS launch_asset,
                        max(r.seq) AS newest
                   FROM expo_embedded_updates e JOIN releases r ON r.id = e.release_id
                  WHERE r.app_id = $1 AND r.fingerprint = $2 AND r.seq <= $3
                  GROUP BY e.platform, e.update_id) recorded) ranked
        WHERE n <= $4
        ORDER BY platform COLLATE "C", newest DESC, update_id`,
      [appId, fingerprint, uptoSeq, limit],
    );
    return rows;
  }

  async recordPackage(row: PackageRow, q: Queryable = this.db): Promise<void> {
    await q.query(
      `INSERT INTO release_packages (release_id, is_zip, folder_hash, file_count) VALUES ($1, $2, $3, $4)
       ON CONFLICT (release_id) DO UPDATE
         SET is_zip = EXCLUDED.is_zip, folder_hash = EXCLUDED.folder_hash, file_count = EXCLUDED.file_count`,
      [row.release_id, row.is_zip, row.folder_hash, row.file_count],
    );
  }

  async package(releaseId: string): Promise<PackageRow | undefined> {
    const { rows } = await this.db.query<PackageRow>(
      'SELECT release_id, is_zip, folder_hash, file_count FROM release_packages WHERE release_id = $1',
      [releaseId],
    );
    return rows[0];
  }

  async recordManifestFiles(manifestSha256: string, fileSha256s: readonly string[]): Promise<void> {
    await this.db.query(
      `INSERT INTO capacitor_manifest_files (manifest_sha256, blob_sha256)
       SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
      [manifestSha256, [...new Set(fileSha256s)]],
    );
  }

  async recordDelta(row: DeltaRow): Promise<void> {
    await this.db.query(
      `INSERT INTO release_deltas
         (target_release_id, kind, platform, base_update_id, base_release_id, blob_sha256, size, full_size)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (target_release_id, kind, platform, base_update_id) DO UPDATE
         SET base_release_id = EXCLUDED.base_release_id, blob_sha256 = EXCLUDED.blob_sha256,
             size = EXCLUDED.size, full_size = EXCLUDED.full_size, created_at = now()`,
      [
        row.target_release_id,
        row.kind,
        row.platform,
        row.base_update_id,
        row.base_release_id,
        row.blob_sha256,
        row.size,
        row.full_size,
      ],
    );
  }

  async deltasOf(targetReleaseId: string): Promise<DeltaRow[]> {
    const { rows } = await this.db.query<DeltaRow & { size: string; full_size: string }>(
      `SELECT target_release_id, kind, platform, base_update_id, base_release_id, blob_sha256, size, full_size
         FROM release_deltas WHERE target_release_id = $1
        ORDER BY kind COLLATE "C", platform COLLATE "C", base_update_id`,
      [targetReleaseId],
    );
    return rows.map((r) => ({ ...r, size: Number(r.size), full_size: Number(r.full_size) }));
  }

  async served(appId: string, limit: number): Promise<ServedDeltas> {
    // One round trip: this runs on a routing-cache miss, beside the app's other reads.
    type Released = ServedRelease & { id: string };
    const { rows } = await this.db.query<{ releases: Released[] | null; deltas: DeltaRow[] | null }>(
      `WITH newest AS (SELECT id, sha256, version FROM releases WHERE app_id = $1 ORDER BY seq DESC LIMIT $2)
       SELECT (SELECT json_agg(json_build_object('id', n.id, 'sha256', n.sha256, 'version', n.version,
                                                 'folder_hash', p.folder_hash))
                 FROM newest n LEFT JOIN release_packages p ON p.release_id = n.id) AS releases,
              (SELECT json_agg(json_build_object(
                        'target_release_id', d.target_release_id, 'kind', d.kind, 'platform', d.platform,
                        'base_update_id', d.base_update_id, 'base_release_id', d.base_release_id,
                        'blob_sha256', d.blob_sha256, 'size', d.size, 'full_size', d.full_size)
                        ORDER BY d.target_release_id, d.kind COLLATE "C", d.platform COLLATE "C", d.base_update_id)
                 FROM release_deltas d JOIN newest n ON n.id = d.target_release_id) AS deltas`,
      [appId, limit],
    );
    const row = rows[0];
    return {
      releases: new Map(
        (row?.releases ?? []).map(({ id, ...r }) => [id, { ...r, folder_hash: r.folder_hash ?? null }]),
      ),
      deltas: (row?.deltas ?? []).map((d) => ({
        ...d,
        size: Number(d.size),
        full_size: Number(d.full_size),
      })),
    };
  }
}

function toRelease(r: ReleaseRecord): DeltaRelease {
  const parts = (r.parts ?? []).map((p) => ({ part: p.part, body: Buffer.from(p.body, 'hex') }));
  return {
    id: r.id,
    app_id: r.app_id,
    channel: r.channel,
    seq: Number(r.seq),
    sha256: r.sha256,
    size: Number(r.size),
    fingerprint: r.fingerprint,
    launch_assets: launchAssetsOf(parts),
  };
}
