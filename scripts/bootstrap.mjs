#!/usr/bin/env node
// Bootstrap for a fresh machine that has only Node.js and npm (Debian 12, run as root).
//
//   node scripts/bootstrap.mjs deps       install node_modules when missing or when package-lock.json changed
//   node scripts/bootstrap.mjs services   deps, then make sure Postgres, Redis and ClickHouse run; print KEY=value lines
//                                          (DATABASE_URL, DATABASE_MIGRATION_URL, REDIS_URL, CLICKHOUSE_URL,
//                                          CLICKHOUSE_DATABASE)
//   node scripts/bootstrap.mjs migrate    deps + services + build, then dist/src/migrate.js (`npm run migrate`)
//
// Also importable: ensureDependencies(), ensureServices(), and the settings and pid helpers that
// stop-services.mjs uses. The code lives in scripts/services/, one module per concern.
//
// Two stages. What runs before node_modules exists uses only Node's standard library, and is kept to that:
//   settings.mjs (ports, paths)  log.mjs  process.mjs (run, which, pidfiles, lock)  net.mjs (TCP, waitFor)
//   deps.mjs (npm ci)  apt.mjs  server-binaries.mjs  chromium.mjs  clickhouse-config.mjs
// Everything that speaks a service's protocol runs after ensureDependencies() and uses the project's
// client libraries (pg, ioredis, @clickhouse/client); ensureServices() loads it on first use:
//   ensure-services.mjs  postgres.mjs  redis.mjs  clickhouse.mjs
// test/unit/project/bootstrap-stages.test.ts keeps the first stage free of packages.
// Every step logs one line to stderr; stdout carries only the env lines of `services`.
//
// Services (unless DATABASE_URL / REDIS_URL / CLICKHOUSE_URL are set, which are used as given). Every
// checkout on the machine shares them; `npm start`, `migrate` and `admin` keep a checkout's data under its
// own names on them (services/checkout.mjs: database `ota_<hash of its path>`, the same ClickHouse database
// and Redis key prefix):
//   Postgres   Debian's cluster (`ls /etc/postgresql`, cluster main) on 5432; database `ota` owned by role
//              `ota` (migrations: DATABASE_MIGRATION_URL), service role `ota_service` (DATABASE_URL).
//   Redis      project-owned instance on 127.0.0.1:6390, AOF on, noeviction, data in .local/redis.
//   ClickHouse project-owned instance on 127.0.0.1:18123 (tcp 19000), data in .local/clickhouse;
//              Debian's clickhouse-server package (18.16), not the package's own service.

import { spawnSync } from 'node:child_process';
import { ensureDependencies } from './services/deps.mjs';
import { BootstrapError, log } from './services/log.mjs';
import { isEntryPoint, pidIsProgram, readPidfile, terminate } from './services/process.mjs';
import { PROJECT_ROOT } from './services/settings.mjs';

export * from './services/settings.mjs';
export { BootstrapError, ensureDependencies, isEntryPoint, log, pidIsProgram, readPidfile, terminate };

/**
 * Postgres, Redis and ClickHouse reachable (installed and started when missing); answers their env lines.
 * Call ensureDependencies() first: the probes use the client libraries from node_modules.
 */
export async function ensureServices() {
  const { ensureServices: ensure } = await import('./services/ensure-services.mjs');
  return ensure();
}

/** ensureServices() with this checkout's own database names and Redis key prefix (services/checkout.mjs). */
export async function ensureCheckoutServices() {
  const { ensureCheckoutServices: ensure } = await import('./services/ensure-services.mjs');
  return ensure(PROJECT_ROOT);
}

const USAGE = `usage: node scripts/bootstrap.mjs <command>
  deps       install node_modules when missing or package-lock.json changed
  services   deps, then ensure Postgres, Redis, ClickHouse; print DATABASE_URL=, DATABASE_MIGRATION_URL=,
             REDIS_URL=, CLICKHOUSE_URL=, CLICKHOUSE_DATABASE= (KEY=value lines on stdout)
  migrate    deps + services + build, then apply the Postgres and ClickHouse migrations`;

async function main(argv) {
  const cmd = argv[0];
  if (cmd === 'deps') {
    ensureDependencies();
  } else if (cmd === 'services') {
    ensureDependencies();
    const env = await ensureServices();
    for (const [k, v] of Object.entries(env)) process.stdout.write(`${k}=${v}\n`);
  } else if (cmd === 'migrate') {
    // `npm run migrate`: the same set-up as `npm start`, then only the migration runner.
    ensureDependencies();
    const env = { ...process.env, ...(await ensureCheckoutServices()) };
    const { localSecrets } = await import('./local-secrets.mjs');
    const { buildIfStale } = await import('./build.mjs');
    Object.assign(env, localSecrets(PROJECT_ROOT));
    buildIfStale(PROJECT_ROOT);
    const r = spawnSync(process.execPath, ['dist/src/migrate.js'], {
      cwd: PROJECT_ROOT,
      env,
      stdio: 'inherit',
    });
    if (r.status !== 0)
      throw new BootstrapError(`migrate: dist/src/migrate.js failed (exit ${r.status ?? r.signal})`);
  } else {
    process.stderr.write(`${USAGE}\n`);
    process.exitCode = cmd === undefined || cmd === '-h' || cmd === '--help' ? 0 : 2;
  }
}

if (isEntryPoint(import.meta.url)) {
  main(process.argv.slice(2)).catch((e) => {
    log(`FAILED: ${e instanceof BootstrapError ? e.message : (e?.stack ?? e)}`);
    process.exitCode = 1;
  });
}
