import type { Logger } from '../platform/logger.js';
import type { Db } from '../platform/postgres.js';
import { readMigrations } from './migration-files.js';
import { applyServiceGrants } from './service-grants.js';

// Any fixed number: concurrent runners (several API copies starting at once) queue on this lock.
const LOCK_ID = 7_310_021;

export interface MigrateOptions {
  /**
   * The role the API and workers connect as (the user of DATABASE_URL). After migrating, it gets the
   * privileges of SERVICE_GRANTS on everything the migrations made (service-grants.ts).
   */
  serviceRole?: string;
}

/**
 * Applies the files of sql/postgres not yet recorded in schema_migrations, each in its own transaction, as
 * the role of `db` (the schema owner), then the service role's grants.
 */
export async function migratePostgres(db: Db, log?: Logger, options: MigrateOptions = {}): Promise<string[]> {
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
    if (options.serviceRole) {
      const granted = await applyServiceGrants(client, options.serviceRole);
      if (granted) log?.info({ role: options.serviceRole }, 'service role grants applied');
      else log?.warn('the service connects as the schema owner: see docs/operations/database-roles.md');
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOCK_ID]).catch(() => {});
    client.release();
  }
  return applied;
}
