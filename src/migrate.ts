import { ConfigError, loadConfig } from './config/config.js';
import { createContainer } from './container.js';
import { migrateClickHouse } from './migrations/clickhouse-migrator.js';
import { migratePostgres } from './migrations/postgres-migrator.js';
import { ensureClickHouseDatabase } from './platform/clickhouse.js';

/** Applies pending Postgres and ClickHouse migrations, then exits (`npm run migrate`). */
async function main(): Promise<void> {
  const config = loadConfig();
  const deps = createContainer(config, { name: 'migrate', role: 'cli', poolSize: 2 });
  try {
    await ensureClickHouseDatabase(config.clickhouseUrl, config.clickhouseDatabase);
    const pg = await migratePostgres(deps.db, deps.log);
    const ch = await migrateClickHouse(deps.clickhouse, deps.log);
    deps.log.info({ postgres: pg.length, clickhouse: ch.length }, 'migrations up to date');
  } finally {
    await deps.close();
  }
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
