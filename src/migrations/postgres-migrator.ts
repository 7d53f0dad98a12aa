import type { Logger } from '../platform/logger.js';
import type { Db } from '../platform/postgres.js';
import { readMigrations } from './migration-files.js';

// Any fixed number: concurrent runners (several API copies starting at once) queue on this lock.
const LOCK_ID = 7_310_021;

/** Applies the files of sql/postgres not yet recorded in schema_migrations, each in its own transaction. */
export async function migratePostgres(db: Db, log?: Logger): Promise<string[]> {
  const client = await db.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_ID]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Map(
      (
        await client.query<{ name: string; checksum: string }>('SELECT name, checksum FROM schema_migrations')
      ).rows.map((r) => [r.name, r.checksum]),
    );
    for (const file of await readMigrations('postgres')) {
      const previous = done.get(file.name);
      if (previous !== undefined) {
        if (previous !== file.checksum)
          log?.warn({ migration: file.name }, 'applied migration was edited since');
        continue;
      }
      await client.query('BEGIN');
      try {
        await client.query(file.sql);
        await client.query('INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)', [
          file.name,
          file.checksum,
        ]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`postgres migration ${file.name} failed: ${(err as Error).message}`);
      }
      applied.push(file.name);
      log?.info({ migration: file.name }, 'postgres migration applied');
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_ID]).catch(() => {});
    client.release();
  }
  return applied;
}
