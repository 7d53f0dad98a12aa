// The names this checkout's data lives under on services other checkouts may share: its Postgres database,
// its ClickHouse database and its Redis key prefix. Every checkout of the project on one machine reuses
// the same Postgres, Redis and ClickHouse (the first one started them); what keeps a second checkout's
// `npm start` out of the first one's data (its jobs, its webhook secrets sealed with the other's
// WEBHOOK_SECRET_KEY) is that each uses names of its own, derived once from where it lives and kept in
// .local/checkout.json beside the secrets (.local/secrets.json) that sign and seal that data.
//
// Node's standard library only: start.mjs and bootstrap.mjs load it before node_modules exists.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** What a Postgres/ClickHouse database name and a Redis key prefix may both be. */
const NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** `ota_` and eight hex digits of the SHA-256 of the checkout's absolute path. */
export function derivedCheckoutName(root) {
  return `ota_${createHash('sha256').update(path.resolve(root)).digest('hex').slice(0, 8)}`;
}

/**
 * The checkout's name, decided on its first `npm start` and kept. A checkout that ran before names were
 * per checkout (its secrets exist, and the Redis it started keeps its data under .local/redis) keeps
 * `ota`, the name its data already has; every other one gets derivedCheckoutName().
 */
export function checkoutName(root) {
  const localDir = path.join(root, '.local');
  const file = path.join(localDir, 'checkout.json');
  try {
    const kept = JSON.parse(fs.readFileSync(file, 'utf8')).name;
    if (typeof kept === 'string' && NAME.test(kept)) return kept;
  } catch {}
  const earlier =
    fs.existsSync(path.join(localDir, 'secrets.json')) && fs.existsSync(path.join(localDir, 'redis'));
  const name = earlier ? 'ota' : derivedCheckoutName(root);
  fs.mkdirSync(localDir, { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify({ name, root: path.resolve(root) }, null, 2)}\n`);
  return name;
}

/**
 * The environment that puts this checkout's data under its own names: CLICKHOUSE_DATABASE and
 * REDIS_KEY_PREFIX unless `given` (the caller's environment) sets them, and the database of the
 * bootstrap's DATABASE_URL and DATABASE_MIGRATION_URL (`services`) unless `given` has a DATABASE_URL,
 * which is used as it is.
 */
export function checkoutEnv(root, services, given = process.env) {
  const name = checkoutName(root);
  const env = {};
  if (!given.DATABASE_URL) {
    for (const key of ['DATABASE_URL', 'DATABASE_MIGRATION_URL']) {
      if (!services[key]) continue;
      const url = new URL(services[key]);
      url.pathname = `/${name}`;
      env[key] = url.toString();
    }
  }
  if (!given.CLICKHOUSE_DATABASE) env.CLICKHOUSE_DATABASE = name;
  if (!given.REDIS_KEY_PREFIX) env.REDIS_KEY_PREFIX = name;
  return { name, env };
}
