import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { fileContext, signUp } from '../../helpers/context.js';

/**
 * Migration 015 over Expo releases pushed before it: their manifests name assets by the old URLs (no app in
 * them), and `extra` may hold escapes jsonb refuses. Every file they name is recorded for its app.
 */
const ctx = fileContext();

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const C = 'c'.repeat(64);
const D = 'd'.repeat(64);

describe('migration 015 (the files Expo releases name)', () => {
  it('records the launch asset and assets of every ios and android manifest, for its app', async () => {
    const sql = await readFile(new URL('../../../sql/postgres/015_expo_assets.sql', import.meta.url), 'utf8');
    const owner = await signUp(ctx.app);
    const db = ctx.ownerDb;
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO apps (workspace_id, name) VALUES ($1, 'Shop') RETURNING id`,
      [owner.workspaceId],
    );
    const appId = rows[0]!.id;
    await db.query(`INSERT INTO bundles (app_id, sha256, size) VALUES ($1, $2, 1)`, [appId, A]);
    const release = await db.query<{ id: string }>(
      `INSERT INTO releases (workspace_id, app_id, version, channel, rollout_pct, sha256, size)
       VALUES ($1, $2, '1.0.0', 'production', 100, $3, 1) RETURNING id`,
      [owner.workspaceId, appId, A],
    );
    const url = (file: string) => `https://ota.example.com/api/v1/expo/assets/${file}`;
    const manifest = (launch: string, assets: string[], extra: string) =>
      Buffer.from(
        `{"id":"x","launchAsset":{"url":"${url(launch)}"},"assets":[${assets
          .map((f) => `{"url":"${url(f)}"}`)
          .join(',')}],"metadata":{},"extra":${extra}}`,
      );
    const parts: Array<[string, Buffer]> = [
      // An object of extra that has a "url" of that shape is not an asset.
      ['ios', manifest(`${A}.bundle`, [`${B}.png`], `{"link":{"url":"${url(`${D}.png`)}"},"e":"é😀"}`)],
      // A manifest json refuses (escapes the API never let through) still gives up its files.
      ['android', manifest(`${A}.bundle`, [`${C}.ttf`], '{"note":"nul \\u0000 and \\ud800"}')],
      ['directive', Buffer.from('{"type":"rollBackToEmbedded"}')],
    ];
    for (const [part, body] of parts) {
      await db.query(`INSERT INTO release_manifests (release_id, part, body) VALUES ($1, $2, $3)`, [
        release.rows[0]!.id,
        part,
        body,
      ]);
    }
    // The database as it was before 015.
    await db.query('DROP TABLE expo_assets');

    await db.query(sql);

    const files = await db.query<{ file: string }>(
      'SELECT file FROM expo_assets WHERE app_id = $1 ORDER BY file',
      [appId],
    );
    expect(files.rows.map((r) => r.file)).toEqual([`${A}.bundle`, `${B}.png`, `${C}.ttf`]);
  });
});
