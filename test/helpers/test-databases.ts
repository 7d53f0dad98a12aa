import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { readMigrations } from '../../src/migrations/migration-files.js';
import { migratePostgres } from '../../src/migrations/postgres-migrator.js';
import { roleOfUrl, SERVICE_GRANTS } from '../../src/migrations/service-grants.js';
import { createPool } from '../../src/platform/postgres.js';

/** A database URL with another database name. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value)
    throw new Error(`${name} is not set: run the tests through "npm test", which starts the services`);
  return value;
}

/**
 * The two logins, as in production: the service role (DATABASE_URL) that the API, workers and tests'
 * service calls use, and the schema owner (DATABASE_MIGRATION_URL) that creates, migrates and drops the
 * test databases.
 */
export function serviceUrl(): string {
  return requireEnv('DATABASE_URL');
}
export function ownerUrl(): string {
  return requireEnv('DATABASE_MIGRATION_URL');
}

/** Name of the migrated template database for the current migration files and service grants. */
export async function templateName(): Promise<string> {
  const files = await readMigrations('postgres');
  const hash = createHash('sha256');
  for (const f of files) hash.update(f.name).update(f.checksum);
  hash.update(roleOfUrl(serviceUrl())).update(JSON.stringify(SERVICE_GRANTS));
  return `ota_test_tpl_${hash.digest('hex').slice(0, 12)}`;
}

function assertTestName(name: string): void {
  // Never create or drop anything that is not plainly a test database.
  if (!/^ota_test_[a-z0-9_]+$/.test(name)) throw new Error(`refusing to touch non-test database ${name}`);
}

/**
 * Makes sure the template exists: built under a temporary name, migrated, then renamed, so a half-built
 * template is never copied. An advisory lock keeps concurrent test runs from building it twice.
 */
export async function ensureTemplate(): Promise<string> {
  const name = await templateName();
  assertTestName(name);
  const admin = new pg.Client({ connectionString: ownerUrl() });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock(7310022)');
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) {
      const building = `${name}_build_${randomBytes(3).toString('hex')}`;
      await admin.query(`CREATE DATABASE ${building}`);
      const pool = createPool(withDatabase(ownerUrl(), building), 1);
      try {
        await migratePostgres(pool, undefined, { serviceRole: roleOfUrl(serviceUrl()) });
      } finally {
        await pool.end();
      }
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
    }
    return name;
  } finally {
    await admin.query('SELECT pg_advisory_unlock(7310022)').catch(() => {});
    await admin.end();
  }
}

/** A copy of the template; its URLs for the service role and for the schema owner. */
export async function createTestDatabase(id: string): Promise<{ service: string; owner: string }> {
  const name = `ota_test_${id}`;
  assertTestName(name);
  const template = await templateName();
  const admin = new pg.Client({ connectionString: ownerUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  return { service: withDatabase(serviceUrl(), name), owner: withDatabase(ownerUrl(), name) };
}

export async function dropTestDatabase(id: string): Promise<void> {
  const name = `ota_test_${id}`;
  assertTestName(name);
  const admin = new pg.Client({ connectionString: ownerUrl() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
