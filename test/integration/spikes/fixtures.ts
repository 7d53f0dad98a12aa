import { randomBytes } from 'node:crypto';
import type { Queryable } from '../../../src/platform/postgres.js';

/** Apps and releases written directly (the release API is another feature's); enough for spike evaluation. */
export async function insertApp(db: Queryable, workspaceId: string, name = 'Shop'): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    'INSERT INTO apps (workspace_id, name) VALUES ($1, $2) RETURNING id',
    [workspaceId, name],
  );
  return rows[0]!.id;
}

export async function insertRelease(
  db: Queryable,
  workspaceId: string,
  appId: string,
  version: string,
  options: { channel?: string; active?: boolean; rolloutPct?: number } = {},
): Promise<string> {
  const sha = randomBytes(32).toString('hex');
  await db.query('INSERT INTO bundles (app_id, sha256, size) VALUES ($1, $2, 10)', [appId, sha]);
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO releases (workspace_id, app_id, version, channel, rollout_pct, sha256, size, active)
     VALUES ($1, $2, $3, $4, $5, $6, 10, $7) RETURNING id`,
    [
      workspaceId,
      appId,
      version,
      options.channel ?? 'production',
      options.rolloutPct ?? 100,
      sha,
      options.active ?? true,
    ],
  );
  return rows[0]!.id;
}
