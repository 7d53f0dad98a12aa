// ensureServices(): Postgres, Redis and ClickHouse reachable, installing and starting what is missing.
// Probes speak through the client libraries (pg, ioredis, @clickhouse/client): load this module only after
// ensureDependencies() (bootstrap.mjs does).
import fs from 'node:fs';
import { aptInstall } from './apt.mjs';
import { checkoutEnv } from './checkout.mjs';
import { clickhouseDatabase, ensureClickhouse, probeClickhouse, waitClickhouseUrl } from './clickhouse.mjs';
import { BootstrapError, log } from './log.mjs';
import { ensureCheckoutDatabase, ensurePostgres, pgInstalled, waitPostgresUrl } from './postgres.mjs';
import { which, withLock } from './process.mjs';
import { ensureRedis, probeRedis, waitRedisUrl } from './redis.mjs';
import { clickhouseBinary } from './server-binaries.mjs';

/**
 * Makes sure Postgres, Redis and ClickHouse are reachable and returns
 * { DATABASE_URL, DATABASE_MIGRATION_URL, REDIS_URL, CLICKHOUSE_URL, CLICKHOUSE_DATABASE }: DATABASE_URL is
 * the service role, DATABASE_MIGRATION_URL the schema owner. URLs already in process.env are used as given
 * (after waiting until reachable); a given DATABASE_URL without DATABASE_MIGRATION_URL is both.
 */
export async function ensureServices() {
  const started = Date.now();
  const given = {
    DATABASE_URL: process.env.DATABASE_URL || null,
    REDIS_URL: process.env.REDIS_URL || null,
    CLICKHOUSE_URL: process.env.CLICKHOUSE_URL || null,
  };
  const external = [];
  if (given.DATABASE_URL) external.push(waitPostgresUrl(given.DATABASE_URL));
  if (given.REDIS_URL) external.push(waitRedisUrl(given.REDIS_URL));
  if (given.CLICKHOUSE_URL) external.push(waitClickhouseUrl(given.CLICKHOUSE_URL));

  const local = async () => {
    if (given.DATABASE_URL && given.REDIS_URL && given.CLICKHOUSE_URL) return {};
    return withLock(async () => {
      // Probe first; install only what is missing, in one apt-get run.
      const [redisState, chState] = await Promise.all([
        given.REDIS_URL ? null : probeRedis(),
        given.CLICKHOUSE_URL ? null : probeClickhouse(),
      ]);
      const packages = [];
      if (!given.DATABASE_URL && !pgInstalled()) packages.push('postgresql');
      const redisNeedsStart =
        !given.REDIS_URL &&
        (redisState === 'absent' ||
          (redisState && !redisState.loading && (!redisState.dir || !fs.existsSync(redisState.dir))));
      if (redisNeedsStart && !which('redis-server')) packages.push('redis-server');
      const chNeedsStart =
        !given.CLICKHOUSE_URL &&
        (chState === 'absent' || !chState.dataPath || !fs.existsSync(chState.dataPath));
      if (chNeedsStart && !clickhouseBinary()) packages.push('clickhouse-server');
      await aptInstall(packages);

      const [postgres, REDIS_URL, CLICKHOUSE_URL] = await allOrThrow([
        given.DATABASE_URL ? null : ensurePostgres(),
        given.REDIS_URL ? null : ensureRedis(redisState),
        given.CLICKHOUSE_URL ? null : ensureClickhouse(chState),
      ]);
      return { ...postgres, REDIS_URL, CLICKHOUSE_URL };
    });
  };

  const [localUrls] = await allOrThrow([local(), ...external]);
  const env = {
    DATABASE_URL: given.DATABASE_URL ?? localUrls.DATABASE_URL,
    DATABASE_MIGRATION_URL: given.DATABASE_URL
      ? process.env.DATABASE_MIGRATION_URL || given.DATABASE_URL
      : localUrls.DATABASE_MIGRATION_URL,
    REDIS_URL: given.REDIS_URL ?? localUrls.REDIS_URL,
    CLICKHOUSE_URL: given.CLICKHOUSE_URL ?? localUrls.CLICKHOUSE_URL,
    CLICKHOUSE_DATABASE: clickhouseDatabase(),
  };
  log(`services: ready in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  return env;
}

/**
 * ensureServices(), then this checkout's own names on them (scripts/services/checkout.mjs): its Postgres
 * database (made when missing), ClickHouse database and Redis key prefix, so that two checkouts on one
 * machine share the servers and nothing else. What `npm start`, `npm run migrate` and `npm run admin` use;
 * the tests name a database and a prefix per test file themselves.
 */
export async function ensureCheckoutServices(root) {
  const services = await ensureServices();
  const { name, env } = checkoutEnv(root, services);
  if (env.DATABASE_MIGRATION_URL) await ensureCheckoutDatabase(env.DATABASE_MIGRATION_URL);
  log(
    `checkout: Postgres database ${dbName(env.DATABASE_URL ?? services.DATABASE_URL)}, ClickHouse database ${env.CLICKHOUSE_DATABASE ?? process.env.CLICKHOUSE_DATABASE}, Redis key prefix ${env.REDIS_KEY_PREFIX ?? process.env.REDIS_KEY_PREFIX} (this checkout's: ${name})`,
  );
  return { ...services, ...env };
}

function dbName(url) {
  return new URL(url).pathname.slice(1);
}

/** Like Promise.all, but waits for every promise and then fails naming every failure. */
async function allOrThrow(promises) {
  const results = await Promise.allSettled(promises);
  const failed = results.filter((r) => r.status === 'rejected').map((r) => r.reason);
  if (failed.length === 1) throw failed[0];
  if (failed.length > 1) throw new BootstrapError(failed.map((e) => e?.message ?? String(e)).join('\n'));
  return results.map((r) => r.value);
}
