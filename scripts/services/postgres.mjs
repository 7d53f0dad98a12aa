// Postgres: Debian's cluster (`ls /etc/postgresql`, cluster main) on 5432, database `ota`, two roles:
//   ota          owns the schema; migrations run as it (DATABASE_MIGRATION_URL). No superuser; CREATEDB, so
//                the tests can make their databases through it.
//   ota_service  what the API and workers connect as (DATABASE_URL): no superuser, owns nothing; the
//                migrator grants it what it needs (src/migrations/service-grants.ts).
// Or DATABASE_URL (and DATABASE_MIGRATION_URL) as given. The passwords are for local development only.
import fs from 'node:fs';
import pg from 'pg';
import { BootstrapError, log } from './log.mjs';
import { tcpOpen, urlHostPort, waitFor } from './net.mjs';
import { isRoot, run, which } from './process.mjs';
import { DB_NAME, POSTGRES_PORT } from './settings.mjs';

export const PG_OWNER = { name: 'ota', password: 'ota' };
export const PG_SERVICE = { name: 'ota_service', password: 'ota_service' };

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

function pgUrl(role, port) {
  return `postgres://${role.name}:${role.password}@127.0.0.1:${port}/${DB_NAME}`;
}

/** What the roles must be, checked through their own logins over TCP (as the service connects). */
const ROLE_CHECKS = [
  [
    PG_SERVICE,
    `SELECT NOT (rolsuper OR rolcreatedb OR rolcreaterole OR rolreplication OR rolbypassrls)
       FROM pg_roles WHERE rolname = current_user`,
  ],
  [
    PG_OWNER,
    `SELECT NOT (rolsuper OR rolreplication OR rolbypassrls) AND rolcreatedb
            AND pg_has_role(current_user, '${PG_SERVICE.name}', 'MEMBER')
            AND (SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = current_database()) = current_user
       FROM pg_roles WHERE rolname = current_user`,
  ],
];

/** Logs in as each role over TCP with the pg client and asks whether its attributes are as they must be. */
async function pgCheckRoles(port) {
  for (const [role, sql] of ROLE_CHECKS) {
    const client = new pg.Client({ connectionString: pgUrl(role, port), connectionTimeoutMillis: 5000 });
    client.on('error', () => {});
    try {
      await client.connect();
      const { rows } = await client.query({ text: sql, rowMode: 'array' });
      if (rows[0]?.[0] !== true) return { ok: false, detail: `${role.name}: attributes differ` };
    } catch (e) {
      return { ok: false, detail: `${role.name}: ${e.message}` };
    } finally {
      await client.end().catch(() => {});
    }
  }
  return { ok: true, detail: '' };
}

/**
 * Creates or corrects both roles and the database, whatever an earlier run left (an earlier bootstrap made
 * `ota` a superuser that the service connected as): every attribute is set each time, so it converges.
 */
export function postgresRolesSql() {
  const o = PG_OWNER;
  const sv = PG_SERVICE;
  return `
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${o.name}') THEN CREATE ROLE ${o.name}; END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${sv.name}') THEN CREATE ROLE ${sv.name}; END IF;
END
$$;
ALTER ROLE ${o.name} LOGIN NOSUPERUSER CREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD '${o.password}';
ALTER ROLE ${sv.name} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD '${sv.password}';
-- The owner drops test databases WITH (FORCE), which ends the service role's sessions in them.
GRANT ${sv.name} TO ${o.name};
SELECT 'CREATE DATABASE ${DB_NAME} OWNER ${o.name}' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '${DB_NAME}')
\\gexec
ALTER DATABASE ${DB_NAME} OWNER TO ${o.name};
`;
}

/**
 * Both roles as they must be on the cluster at `port` (superuser work through the local socket in
 * `socketDir` as the postgres OS user); returns the two URLs.
 */
export async function ensurePostgresRoles({ port = POSTGRES_PORT, socketDir } = {}) {
  const urls = { DATABASE_URL: pgUrl(PG_SERVICE, port), DATABASE_MIGRATION_URL: pgUrl(PG_OWNER, port) };
  // Fast path: both logins work and have the attributes they should.
  if ((await pgCheckRoles(port)).ok) {
    log(`postgres: ready on ${port} (database ${DB_NAME}, roles ${PG_OWNER.name} and ${PG_SERVICE.name})`);
    return urls;
  }
  if (!isRoot())
    throw new BootstrapError(
      `postgres: the roles ${PG_OWNER.name}/${PG_SERVICE.name} are missing or wrong and not root to fix them; set DATABASE_URL and DATABASE_MIGRATION_URL`,
    );
  const psql = ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-p', String(port), '-d', 'postgres', '-f', '-'];
  if (socketDir) psql.unshift('-h', socketDir);
  const r = run('runuser', ['-u', 'postgres', '--', 'psql', ...psql], {
    input: postgresRolesSql(),
    cwd: '/',
    timeoutMs: 60_000,
  });
  if (!r.ok)
    throw new BootstrapError(`postgres: creating roles and database ${DB_NAME} failed: ${r.stderr.trim()}`);
  log(
    `postgres: roles ${PG_OWNER.name} (owner) and ${PG_SERVICE.name} (service), database ${DB_NAME} ensured`,
  );
  const check = await pgCheckRoles(port);
  if (!check.ok) throw new BootstrapError(`postgres: roles not as expected: ${check.detail}`);
  log(`postgres: ready on ${port}`);
  return urls;
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

  return ensurePostgresRoles();
}

/**
 * The checkout's own database (scripts/services/checkout.mjs) at `ownerUrl`'s cluster, made by the schema
 * owner (it has CREATEDB, so a checkout that did not start the cluster needs no root for it).
 */
export async function ensureCheckoutDatabase(ownerUrl) {
  const name = new URL(ownerUrl).pathname.slice(1);
  const maintenance = new URL(ownerUrl);
  maintenance.pathname = `/${DB_NAME}`;
  const client = new pg.Client({ connectionString: maintenance.toString(), connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  try {
    await client.connect();
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      // Two starts of one checkout at once: the second one's CREATE meets the first one's database.
      await client.query(`CREATE DATABASE "${name.replaceAll('"', '')}"`).catch((e) => {
        if (e.code !== '42P04' && e.code !== '23505') throw e;
      });
      log(`postgres: database ${name} created (this checkout's)`);
    }
  } catch (e) {
    throw new BootstrapError(`postgres: creating this checkout's database ${name} failed: ${e.message}`);
  } finally {
    await client.end().catch(() => {});
  }
}
