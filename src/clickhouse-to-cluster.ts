import { loadConfig } from './config/config.js';
import { ConfigError } from './config/env.js';
import { moveToCluster } from './migrations/clickhouse-to-cluster.js';
import {
  CLICKHOUSE_DDL_TIMEOUT_MS,
  createClickHouse,
  ensureClickHouseDatabase,
} from './platform/clickhouse.js';

/**
 * `npm run clickhouse:to-cluster`: moves the database of CLICKHOUSE_DATABASE on the server of
 * CLICKHOUSE_URL, in its single-server form, onto the cluster CLICKHOUSE_CLUSTER that server is now a
 * member of (docs/operations/processes-and-scaling.md). Prints what it copied.
 */
async function main(): Promise<number> {
  const config = loadConfig();
  const cluster = config.clickhouseCluster;
  if (!cluster)
    throw new ConfigError('clickhouse:to-cluster needs CLICKHOUSE_CLUSTER (the cluster to move onto).');
  await ensureClickHouseDatabase(config.clickhouseUrl, config.clickhouseDatabase, cluster);
  // Schema changes and INSERT … SELECT copies of whole tables: the longer deadline.
  const ch = createClickHouse(
    config.clickhouseUrl,
    config.clickhouseDatabase,
    cluster,
    CLICKHOUSE_DDL_TIMEOUT_MS,
  );
  try {
    const result = await moveToCluster(ch, { cluster, database: config.clickhouseDatabase });
    console.log(JSON.stringify(result));
    return 0;
  } finally {
    await ch.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  },
);
