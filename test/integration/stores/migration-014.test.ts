import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { fileContext, signUp } from '../../helpers/context.js';

/**
 * Migration 014 on a database that already holds what it makes unique: apps sharing a name and a version
 * pushed twice. It must apply, rename only the later apps, and leave every release as it was.
 */
const ctx = fileContext();

describe('migration 014 (names instead of ids)', () => {
  it('applies over duplicate app names and versions, keeping the oldest name and every version', async () => {
    const sql = await readFile(new URL('../../../sql/postgres/014_human_ids.sql', import.meta.url), 'utf8');
    const owner = await signUp(ctx.app);
    const db = ctx.ownerDb;
    // The database as it was before 014: no index, duplicates written the way the old service allowed.
    await db.query(
      'DROP INDEX apps_workspace_name_idx, releases_app_version_idx, releases_workspace_version_idx',
    );
    const apps: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO apps (workspace_id, name, created_at) VALUES ($1, 'Shop', now() + $2 * interval '1 s')
         RETURNING id`,
        [owner.workspaceId, i],
      );
      apps.push(rows[0]!.id);
    }
    await db.query(`INSERT INTO bundles (app_id, sha256, size) VALUES ($1, repeat('a', 64), 1)`, [apps[0]]);
    for (let i = 0; i < 2; i++) {
      await db.query(
        `INSERT INTO releases (workspace_id, app_id, version, channel, rollout_pct, sha256, size)
         VALUES ($1, $2, '1.0.0', 'production', 100, repeat('a', 64), 1)`,
        [owner.workspaceId, apps[0]],
      );
    }

    await db.query(sql);

    const { rows: names } = await db.query<{ id: string; name: string }>(
      'SELECT id, name FROM apps WHERE workspace_id = $1 ORDER BY created_at',
      [owner.workspaceId],
    );
    expect(names.map((r) => r.name)).toEqual([
      'Shop',
      `Shop (${apps[1]!.slice(0, 8)})`,
      `Shop (${apps[2]!.slice(0, 8)})`,
    ]);
    const { rows: versions } = await db.query<{ version: string }>(
      'SELECT version FROM releases WHERE app_id = $1',
      [apps[0]],
    );
    expect(versions.map((r) => r.version)).toEqual(['1.0.0', '1.0.0']);
    // From now on a second "Shop" is refused by the index.
    await expect(
      db.query(`INSERT INTO apps (workspace_id, name) VALUES ($1, 'Shop')`, [owner.workspaceId]),
    ).rejects.toThrow(/apps_workspace_name_idx/);
  });
});
