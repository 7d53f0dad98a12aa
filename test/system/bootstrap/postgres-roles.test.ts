import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { ensurePostgresRoles, PG_OWNER, PG_SERVICE } from '../../../scripts/services/postgres.mjs';
import { readMigrations } from '../../../src/migrations/migration-files.js';
import { migratePostgres } from '../../../src/migrations/postgres-migrator.js';
import { roleOfUrl } from '../../../src/migrations/service-grants.js';
import { projectRoot } from '../../../src/platform/paths.js';
import { createPool } from '../../../src/platform/postgres.js';
import { PrivatePostgres } from '../support/private-postgres.js';

// The bootstrap's Postgres step (scripts/services/postgres.mjs) on clusters of the test's own: a fresh
// machine, and one where an earlier bootstrap made `ota` a superuser that the service connected as.
let cluster: PrivatePostgres | undefined;
afterEach(async () => {
  await cluster?.stop();
  cluster = undefined;
});

const ROLE_ATTRIBUTES = `SELECT rolname, rolsuper, rolcreatedb, rolcreaterole, rolbypassrls
  FROM pg_roles WHERE rolname IN ('${PG_OWNER.name}', '${PG_SERVICE.name}') ORDER BY rolname`;

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Migrates as the owner, then shows the service cannot switch the audit log's trigger off. */
async function migrateAndProbe(urls: { DATABASE_URL: string; DATABASE_MIGRATION_URL: string }) {
  const owner = createPool(urls.DATABASE_MIGRATION_URL, 1);
  try {
    await migratePostgres(owner, undefined, { serviceRole: roleOfUrl(urls.DATABASE_URL) });
  } finally {
    await owner.end();
  }
  await expect(query(urls.DATABASE_URL, 'ALTER TABLE audit_log DISABLE TRIGGER ALL')).rejects.toMatchObject({
    code: '42501',
  });
  await expect(query(urls.DATABASE_URL, 'TRUNCATE audit_log')).rejects.toMatchObject({ code: '42501' });
  expect(await query(urls.DATABASE_URL, 'SELECT count(*)::int AS n FROM workspaces')).toEqual([{ n: 0 }]);
}

const expectedRoles = [
  { rolname: PG_OWNER.name, rolsuper: false, rolcreatedb: true, rolcreaterole: false, rolbypassrls: false },
  {
    rolname: PG_SERVICE.name,
    rolsuper: false,
    rolcreatedb: false,
    rolcreaterole: false,
    rolbypassrls: false,
  },
];

describe('the bootstrap’s Postgres roles', () => {
  it('on a fresh cluster: creates the owner, the service role and the database; migrations run as the owner', async () => {
    cluster = await PrivatePostgres.start();
    const urls = await ensurePostgresRoles({ port: cluster.port, socketDir: cluster.socketDir });
    expect(roleOfUrl(urls.DATABASE_URL)).toBe(PG_SERVICE.name);
    expect(roleOfUrl(urls.DATABASE_MIGRATION_URL)).toBe(PG_OWNER.name);
    expect(await query(urls.DATABASE_MIGRATION_URL, ROLE_ATTRIBUTES)).toEqual(expectedRoles);
    await migrateAndProbe(urls);
    // The tests' databases: made by the owner, used by the service, dropped by the owner while in use.
    await query(urls.DATABASE_MIGRATION_URL, 'CREATE DATABASE ota_test_scratch');
    const scratch = (url: string) => url.replace(/\/ota$/, '/ota_test_scratch');
    const user = new pg.Client({ connectionString: scratch(urls.DATABASE_URL) });
    user.on('error', () => {});
    await user.connect();
    await query(urls.DATABASE_MIGRATION_URL, 'DROP DATABASE ota_test_scratch WITH (FORCE)');
    await user.end().catch(() => {});
    // A second run finds everything in place and changes nothing.
    expect(await ensurePostgresRoles({ port: cluster.port, socketDir: cluster.socketDir })).toEqual(urls);
  }, 120_000);

  it('converges from the old set-up: the superuser `ota` that owned everything becomes the plain owner', async () => {
    cluster = await PrivatePostgres.start();
    const old = cluster.superuser(`
      CREATE ROLE ${PG_OWNER.name} LOGIN SUPERUSER CREATEDB PASSWORD '${PG_OWNER.password}';
      CREATE DATABASE ota OWNER ${PG_OWNER.name};`);
    expect(old.ok, old.out).toBe(true);
    // What an earlier release left: its migrations applied by that superuser, and a workspace in use.
    const oldUrl = cluster.url(PG_OWNER.name, PG_OWNER.password);
    const client = new pg.Client({ connectionString: oldUrl });
    await client.connect();
    try {
      await client.query(`CREATE TABLE schema_migrations (
        name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
      for (const file of (await readMigrations('postgres')).filter((f) => f.name < '010')) {
        await client.query(file.sql);
        await client.query('INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)', [
          file.name,
          file.checksum,
        ]);
      }
    } finally {
      await client.end();
    }

    const urls = await ensurePostgresRoles({ port: cluster.port, socketDir: cluster.socketDir });
    expect(await query(urls.DATABASE_MIGRATION_URL, ROLE_ATTRIBUTES)).toEqual(expectedRoles);
    await migrateAndProbe(urls);
    expect(await ensurePostgresRoles({ port: cluster.port, socketDir: cluster.socketDir })).toEqual(urls);
  }, 120_000);

  it('docker-compose.yml’s db-roles step (deploy/postgres-roles.sql) makes the service role, and again', async () => {
    cluster = await PrivatePostgres.start();
    // As the postgres image leaves it: POSTGRES_USER `ota`, a superuser, owning database `ota`.
    const image = cluster.superuser(`
      CREATE ROLE ota LOGIN SUPERUSER PASSWORD 'owner-pw';
      CREATE DATABASE ota OWNER ota;`);
    expect(image.ok, image.out).toBe(true);
    const step = (password: string) =>
      spawnSync(
        'psql',
        ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-v', `service_password=${password}`].concat([
          '-f',
          join(projectRoot(), 'deploy/postgres-roles.sql'),
          cluster!.url('ota', 'owner-pw'),
        ]),
        { encoding: 'utf8' },
      );
    for (const password of ['first-pw', 'second-pw']) {
      const r = step(password);
      expect(r.status, r.stderr).toBe(0);
    }
    const service = cluster.url('ota_service', 'second-pw');
    const owner = createPool(cluster.url('ota', 'owner-pw'), 1);
    try {
      await migratePostgres(owner, undefined, { serviceRole: 'ota_service' });
    } finally {
      await owner.end();
    }
    expect(await query(service, ROLE_ATTRIBUTES.replace(PG_OWNER.name, 'none'))).toEqual([expectedRoles[1]]);
    await expect(query(service, 'ALTER TABLE audit_log DISABLE TRIGGER ALL')).rejects.toMatchObject({
      code: '42501',
    });
    await expect(query(cluster.url('ota_service', 'first-pw'), 'SELECT 1')).rejects.toThrow(/password/);
  }, 120_000);
});
