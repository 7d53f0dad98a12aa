// The server packages: where the ClickHouse binary is, and the packages the system tests run private
// copies of (a Redis and a ClickHouse they kill and restart), installed even when REDIS_URL /
// CLICKHOUSE_URL point at servers elsewhere, and the command-line tools documented walkthroughs run in tests
// (`zip` for a CodePush bundle, `openssl` for an Expo code-signing certificate). Standard library only: test.mjs loads it before
// node_modules exists.
import { aptInstall } from './apt.mjs';
import { log } from './log.mjs';
import { which } from './process.mjs';

export function clickhouseBinary() {
  const server = which('clickhouse-server');
  if (server) return { cmd: server, pre: [] };
  const multi = which('clickhouse'); // newer packaging: one binary, `clickhouse server`
  if (multi) return { cmd: multi, pre: ['server'] };
  return null;
}

export async function ensureServerBinaries() {
  const missing = [];
  if (!which('redis-server')) missing.push('redis-server');
  if (!clickhouseBinary()) missing.push('clickhouse-server');
  if (!which('zip')) missing.push('zip');
  if (!which('openssl')) missing.push('openssl');
  if (missing.length === 0) return;
  log(`tests: installing ${missing.join(', ')}`);
  await aptInstall(missing);
}
