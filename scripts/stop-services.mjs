#!/usr/bin/env node
// Stops the Redis, ClickHouse and S3 (s3rver) instances this checkout started, and the engines of the
// cluster tests when they run (found by their pidfiles under .local/). Never touches anything else: a pidfile whose pid is no longer that program is removed,
// not acted on. Postgres is Debian's shared cluster and is left running.
//
//   node scripts/stop-services.mjs

import fs from 'node:fs';
import path from 'node:path';
import {
  CLICKHOUSE_DIR,
  CLICKHOUSE_PIDFILE,
  isEntryPoint,
  log,
  PROJECT_ROOT,
  pidIsProgram,
  REDIS_PIDFILE,
  readPidfile,
  S3_DIR,
  S3_PIDFILE,
  terminate,
} from './bootstrap.mjs';
import { stopClusterEngines } from './services/cluster.mjs';

function belongsToThisCheckout(pid, program) {
  if (!pidIsProgram(pid, program)) return false;
  if (program === 'redis') return true; // redis rewrites its cmdline; the pidfile under .local is the proof
  let cmdline = '';
  try {
    cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {}
  return cmdline.includes(program === 'clickhouse' ? CLICKHOUSE_DIR : S3_DIR);
}

async function stopOne(name, program, pidfile) {
  const pid = readPidfile(pidfile);
  if (!pid) {
    log(`${name}: not running (no pidfile ${path.relative(PROJECT_ROOT, pidfile)})`);
    return true;
  }
  if (!belongsToThisCheckout(pid, program)) {
    log(`${name}: stale pidfile (pid ${pid} is not our ${program}); removed`);
    fs.rmSync(pidfile, { force: true });
    return true;
  }
  const stopped = await terminate(pid, 30_000);
  if (!stopped) {
    log(`${name}: pid ${pid} did not exit`);
    return false;
  }
  fs.rmSync(pidfile, { force: true });
  log(`${name}: stopped (pid ${pid})`);
  return true;
}

export async function stopServices() {
  const results = await Promise.all([
    stopOne('redis', 'redis', REDIS_PIDFILE),
    stopOne('clickhouse', 'clickhouse', CLICKHOUSE_PIDFILE),
    // s3rver runs under node; its command line names its data folder under .local/s3.
    stopOne('s3', 'node', S3_PIDFILE),
  ]);
  await stopClusterEngines();
  return results.every(Boolean);
}

if (isEntryPoint(import.meta.url)) {
  stopServices().then(
    (ok) => {
      process.exitCode = ok ? 0 : 1;
    },
    (e) => {
      log(`FAILED: ${e?.stack ?? e}`);
      process.exitCode = 1;
    },
  );
}
