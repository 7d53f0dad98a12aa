// The server packages the system tests run private copies of (a Redis and a ClickHouse they kill and
// restart), installed even when REDIS_URL / CLICKHOUSE_URL point at servers elsewhere.
import { aptInstall } from './apt.mjs';
import { clickhouseBinary } from './clickhouse.mjs';
import { log } from './log.mjs';
import { which } from './process.mjs';

export async function ensureServerBinaries() {
  const missing = [];
  if (!which('redis-server')) missing.push('redis-server');
  if (!clickhouseBinary()) missing.push('clickhouse-server');
  if (missing.length === 0) return;
  log(`system tests: installing ${missing.join(', ')}`);
  await aptInstall(missing);
}
