import type { ClickHouseClient } from '../platform/clickhouse.js';
import { chString } from '../platform/clickhouse.js';
import type { Logger } from '../platform/logger.js';
import { readMigrations, splitStatements } from './migration-files.js';

/**
 * Applies the files of sql/clickhouse not yet recorded in the database's schema_migrations table.
 * ClickHouse has no transactions: statements are written to be re-runnable (IF NOT EXISTS), so a file
 * interrupted half-way is simply applied again.
 */
export async function migrateClickHouse(ch: ClickHouseClient, log?: Logger): Promise<string[]> {
  await ch.command({
    query: `CREATE TABLE IF NOT EXISTS schema_migrations (name String, checksum String, applied_at DateTime)
      ENGINE = Log`,
  });
  const rs = await ch.query({ query: 'SELECT name FROM schema_migrations', format: 'JSONEachRow' });
  const done = new Set((await rs.json<{ name: string }>()).map((r) => r.name));
  const applied: string[] = [];
  for (const file of await readMigrations('clickhouse')) {
    if (done.has(file.name)) continue;
    for (const statement of splitStatements(file.sql)) {
      try {
        await ch.command({ query: statement });
      } catch (err) {
        throw new Error(`clickhouse migration ${file.name} failed: ${(err as Error).message}`);
      }
    }
    await ch.command({
      query: `INSERT INTO schema_migrations (name, checksum, applied_at) VALUES (${chString(file.name)}, ${chString(
        file.checksum,
      )}, now())`,
    });
    applied.push(file.name);
    log?.info({ migration: file.name }, 'clickhouse migration applied');
  }
  return applied;
}
