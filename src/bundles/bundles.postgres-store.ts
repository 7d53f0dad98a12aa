import type { Queryable } from '../platform/postgres.js';
import type { BundleRow, BundlesStore } from './bundles.store.js';

export class PostgresBundlesStore implements BundlesStore {
  constructor(private readonly db: Queryable) {}

  async record(appId: string, sha256: string, size: number): Promise<void> {
    await this.db.query(
      `INSERT INTO bundles (app_id, sha256, size) VALUES ($1, $2, $3)
       ON CONFLICT (app_id, sha256) DO NOTHING`,
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
}
