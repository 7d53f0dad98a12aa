// Postgres: Debian's cluster (`ls /etc/postgresql`, cluster main) on 5432 with role and database `ota`,
// or DATABASE_URL as given.
import fs from 'node:fs';
import pg from 'pg';
import { BootstrapError, log } from './log.mjs';
import { tcpOpen, urlHostPort, waitFor } from './net.mjs';
import { isRoot, run, which } from './process.mjs';
import { DB_NAME, POSTGRES_PORT } from './settings.mjs';

const PG_USER = 'ota';
const PG_PASSWORD = 'ota';

/** SQLSTATEs a wait cannot cure: a refused password or role, an unknown database. */
const FATAL_LOGIN = new Set(['28P01', '28000', '3D000']);

/** Connects with the URL as the service will and runs SELECT 1: reachable, accepting that login, ready. */
export async function waitPostgresUrl(url) {
  const { host, port } = urlHostPort(url, 5432);
  const what = `postgres (DATABASE_URL ${host}:${port})`;
  await waitFor(what, async () => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch (e) {
      if (FATAL_LOGIN.has(e.code)) throw new BootstrapError(`${what}: ${e.message}`);
      throw e;
    } finally {
      await client.end().catch(() => {});
    }
  });
  log(`postgres: using DATABASE_URL (${host}:${port} answers)`);
}

export function pgInstalled() {
  if (!which('pg_ctlcluster') || !which('psql')) return false;
  try {
    return fs
      .readdirSync('/usr/lib/postgresql')
      .some((v) => fs.existsSync(`/usr/lib/postgresql/${v}/bin/postgres`));
  } catch {
    return false;
  }
}

function pgVersion() {
  const byNum = (a, b) => Number.parseFloat(b) - Number.parseFloat(a);
  let versions = [];
  try {
    versions = fs
      .readdirSync('/etc/postgresql')
      .filter((v) => fs.existsSync(`/etc/postgresql/${v}/main`))
      .sort(byNum);
  } catch {}
  if (versions.length > 0) return { version: versions[0], exists: true };
  const installed = fs
    .readdirSync('/usr/lib/postgresql')
    .filter((v) => fs.existsSync(`/usr/lib/postgresql/${v}/bin/postgres`))
    .sort(byNum);
  return { version: installed[0], exists: false };
}

function pgUrl() {
  return `postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${POSTGRES_PORT}/${DB_NAME}`;
}

function pgCheckOtaLogin() {
  const r = run(
    'psql',
    [
      '-X',
      '-w',
      '-tA',
      pgUrl(),
      '-c',
      'SELECT rolsuper AND rolcreatedb FROM pg_roles WHERE rolname = current_user',
    ],
    {
      env: { PGCONNECT_TIMEOUT: '5' },
      timeoutMs: 15_000,
    },
  );
  return { ok: r.ok && r.stdout.trim() === 't', detail: (r.stderr || r.stdout).trim() };
}

export async function ensurePostgres() {
  if (!pgInstalled()) throw new BootstrapError('postgres: postgresql binaries not found after install');

  if (!(await tcpOpen('127.0.0.1', POSTGRES_PORT))) {
    if (!isRoot())
      throw new BootstrapError(
        `postgres: nothing on 127.0.0.1:${POSTGRES_PORT} and not root to start the cluster; set DATABASE_URL`,
      );
    const { version, exists } = pgVersion();
    if (!exists) {
      log(`postgres: creating cluster ${version}/main`);
      const r = run('pg_createcluster', [version, 'main'], { timeoutMs: 120_000 });
      if (!r.ok)
        throw new BootstrapError(`postgres: pg_createcluster ${version} main failed: ${r.stderr.trim()}`);
    }
    log(`postgres: starting cluster ${version}/main`);
    const r = run('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], {
      timeoutMs: 120_000,
    });
    if (!r.ok && !/already running/i.test(r.stderr)) {
      throw new BootstrapError(`postgres: pg_ctlcluster ${version} main start failed: ${r.stderr.trim()}`);
    }
    await waitFor(
      `postgres: cluster ${version}/main on 127.0.0.1:${POSTGRES_PORT}`,
      () => tcpOpen('127.0.0.1', POSTGRES_PORT),
      60_000,
    );
    log(`postgres: cluster ${version}/main started on ${POSTGRES_PORT}`);
  }

  // Fast path: role and database already exist and the password works over TCP.
  if (pgCheckOtaLogin().ok) {
    log(`postgres: ready on ${POSTGRES_PORT} (role and database ${DB_NAME})`);
    return pgUrl();
  }

  if (!isRoot())
    throw new BootstrapError(
      `postgres: cannot log in as ${PG_USER} and not root to create the role; set DATABASE_URL`,
    );
  const sql = `
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${PG_USER}') THEN
    CREATE ROLE ${PG_USER} LOGIN SUPERUSER CREATEDB PASSWORD '${PG_PASSWORD}';
  ELSE
    ALTER ROLE ${PG_USER} LOGIN SUPERUSER CREATEDB PASSWORD '${PG_PASSWORD}';
  END IF;
END
$$;
SELECT 'CREATE DATABASE ${DB_NAME} OWNER ${PG_USER}' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '${DB_NAME}')
\\gexec
`;
  const r = run(
    'runuser',
    [
      '-u',
      'postgres',
      '--',
      'psql',
      '-X',
      '-q',
      '-v',
      'ON_ERROR_STOP=1',
      '-p',
      String(POSTGRES_PORT),
      '-d',
      'postgres',
      '-f',
      '-',
    ],
    {
      input: sql,
      cwd: '/',
      timeoutMs: 60_000,
    },
  );
  if (!r.ok)
    throw new BootstrapError(
      `postgres: creating role/database ${DB_NAME} as postgres failed: ${r.stderr.trim()}`,
    );
  log(`postgres: role ${PG_USER} and database ${DB_NAME} ensured`);

  const check = pgCheckOtaLogin();
  if (!check.ok) throw new BootstrapError(`postgres: cannot log in with ${pgUrl()}: ${check.detail}`);
  log(`postgres: ready on ${POSTGRES_PORT}`);
  return pgUrl();
}
