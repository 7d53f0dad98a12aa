import { DEFAULT_CHANNEL } from '@ota/shared/ids';
import type { Queryable } from '../platform/postgres.js';
import type { AppRow, AppsStore, FingerprintRow } from './apps.store.js';

const APP_COLUMNS = 'id, workspace_id, name, created_at';

export class PostgresAppsStore implements AppsStore {
  constructor(private readonly db: Queryable) {}

  async insert(q: Queryable, workspaceId: string, name: string): Promise<AppRow | undefined> {
    // The unique index decides, so two people creating "Shop" at once cannot both succeed.
    const { rows } = await q.query<AppRow>(
      `INSERT INTO apps (workspace_id, name) VALUES ($1, $2)
       ON CONFLICT (workspace_id, name) DO NOTHING RETURNING ${APP_COLUMNS}`,
      [workspaceId, name],
    );
    return rows[0];
  }

  async list(workspaceId: string): Promise<AppRow[]> {
    const { rows } = await this.db.query<AppRow>(
      `SELECT ${APP_COLUMNS} FROM apps WHERE workspace_id = $1 ORDER BY created_at DESC, id`,
      [workspaceId],
    );
    return rows;
  }

  async find(workspaceId: string, appId: string, q: Queryable = this.db): Promise<AppRow | undefined> {
    const { rows } = await q.query<AppRow>(
      `SELECT ${APP_COLUMNS} FROM apps WHERE id = $1 AND workspace_id = $2`,
      [appId, workspaceId],
    );
    return rows[0];
  }

  /** NO KEY UPDATE leaves inserts that only reference the app (bundle rows) unblocked. */
  async lock(q: Queryable, workspaceId: string, appId: string): Promise<AppRow | undefined> {
    const { rows } = await q.query<AppRow>(
      `SELECT ${APP_COLUMNS} FROM apps WHERE id = $1 AND workspace_id = $2 FOR NO KEY UPDATE`,
      [appId, workspaceId],
    );
    return rows[0];
  }

  async channels(appId: string): Promise<string[]> {
    const { rows } = await this.db.query<{ channel: string }>(
      `SELECT DISTINCT channel FROM releases
        WHERE app_id = $1 AND channel <> $2 AND withdrawn_at IS NULL ORDER BY channel`,
      [appId, DEFAULT_CHANNEL],
    );
    return [DEFAULT_CHANNEL, ...rows.map((r) => r.channel)];
  }

  async fingerprints(appId: string): Promise<FingerprintRow[]> {
    const { rows } = await this.db.query<FingerprintRow>(
      'SELECT fingerprint, created_at FROM fingerprints WHERE app_id = $1 ORDER BY created_at, fingerprint',
      [appId],
    );
    return rows;
  }

  async findFingerprint(
    appId: string,
    fingerprint: string,
    q: Queryable = this.db,
  ): Promise<FingerprintRow | undefined> {
    const { rows } = await q.query<FingerprintRow>(
      'SELECT fingerprint, created_at FROM fingerprints WHERE app_id = $1 AND fingerprint = $2',
      [appId, fingerprint],
    );
    return rows[0];
  }

  async insertFingerprint(
    q: Queryable,
    appId: string,
    fingerprint: string,
  ): Promise<FingerprintRow | undefined> {
    const { rows } = await q.query<FingerprintRow>(
      `INSERT INTO fingerprints (app_id, fingerprint) VALUES ($1, $2)
       ON CONFLICT (app_id, fingerprint) DO NOTHING RETURNING fingerprint, created_at`,
      [appId, fingerprint],
    );
    return rows[0];
  }
}
