import type { Queryable } from '../platform/postgres.js';
import type { DeploymentKeyRow, DeploymentKeysStore } from './deployment-keys.store.js';
import type { HistoryRow } from './release-history.js';

const COLUMNS = 'key, app_id, channel, created_at';

export class PostgresDeploymentKeysStore implements DeploymentKeysStore {
  constructor(private readonly db: Queryable) {}

  async insert(q: Queryable, key: string, appId: string, channel: string): Promise<DeploymentKeyRow> {
    const { rows } = await q.query<DeploymentKeyRow>(
      `INSERT INTO deployment_keys (key, app_id, channel) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
      [key, appId, channel],
    );
    return rows[0]!;
  }

  async countForApp(q: Queryable, appId: string): Promise<number> {
    const { rows } = await q.query<{ n: string }>(
      'SELECT count(*) AS n FROM deployment_keys WHERE app_id = $1',
      [appId],
    );
    return Number(rows[0]!.n);
  }

  /** Oldest first, so a list reads in the order the keys were made. */
  async list(appId: string): Promise<DeploymentKeyRow[]> {
    const { rows } = await this.db.query<DeploymentKeyRow>(
      `SELECT ${COLUMNS} FROM deployment_keys WHERE app_id = $1 ORDER BY created_at, key`,
      [appId],
    );
    return rows;
  }

  /** True when the app had the key (and it is now gone). */
  async delete(q: Queryable, appId: string, key: string): Promise<boolean> {
    const { rowCount } = await q.query('DELETE FROM deployment_keys WHERE app_id = $1 AND key = $2', [
      appId,
      key,
    ]);
    return (rowCount ?? 0) > 0;
  }

  /** The app a key belongs to, or null when no such key exists (any more). */
  async appOf(key: string): Promise<string | null> {
    const { rows } = await this.db.query<{ app_id: string }>(
      'SELECT app_id FROM deployment_keys WHERE key = $1',
      [key],
    );
    return rows[0]?.app_id ?? null;
  }

  /**
   * Every bundle release of one app's channel, rolled back ones included (the CodePush adapter's history).
   * Expo releases (those with a directive part) are not CodePush's: their labels and mandatory flags stay out.
   */
  async releaseHistory(appId: string, channel: string): Promise<HistoryRow[]> {
    const { rows } = await this.db.query<HistoryRow>(
      `SELECT id, version, seq, active, mandatory, fingerprint, target_binary_range
         FROM releases r WHERE app_id = $1 AND channel = $2
          AND NOT EXISTS (SELECT 1 FROM release_manifests x WHERE x.release_id = r.id AND x.part = 'directive')`,
      [appId, channel],
    );
    return rows;
  }
}
