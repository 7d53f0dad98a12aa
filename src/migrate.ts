import { createContainer } from './container/container.js';
import { runProcess } from './container/process-runner.js';
import { migrateClickHouse } from './migrations/clickhouse-migrator.js';
import { migratePostgres } from './migrations/postgres-migrator.js';
import { roleOfUrl } from './migrations/service-grants.js';
import {
  CLICKHOUSE_DDL_TIMEOUT_MS,
  createClickHouse,
  ensureClickHouseDatabase,
} from './platform/clickhouse.js';
import { createPool } from './platform/postgres.js';

/**
 * Applies pending Postgres and ClickHouse migrations, then exits (`npm run migrate`). Postgres migrations
 * run as the schema owner (DATABASE_MIGRATION_URL), which then grants the service role (the user of
 * DATABASE_URL) what it needs.
 */
runProcess({
  build: (config) => createContainer(config, { name: 'migrate', role: 'cli', poolSize: 2 }),
  start: async (deps) => {
    const { config } = deps;
    const owner = createPool(config.databaseMigrationUrl, 2);
    const cluster = config.clickhouseCluster;
    // Schema changes get the longer deadline of CLICKHOUSE_DDL_TIMEOUT_MS (ON CLUSTER waits for every shard).
    const ddl = createClickHouse(
      config.clickhouseUrl,
      config.clickhouseDatabase,
      cluster ?? undefined,
      CLICKHOUSE_DDL_TIMEOUT_MS,
    );
    try {
      await ensureClickHouseDatabase(config.clickhouseUrl, config.clickhouseDatabase, cluster ?? undefined);
      const pg = await migratePostgres(owner, deps.log, { serviceRole: roleOfUrl(config.databaseUrl) });
      const ch = await migrateClickHouse(
        ddl,
        deps.log,
        cluster ? { cluster, database: config.clickhouseDatabase } : undefined,
      );
      deps.log.info({ postgres: pg.length, clickhouse: ch.length }, 'migrations up to date');
    } finally {
      await owner.end();
      await ddl.close();
    }
    return undefined;
  },
});
