import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { derivedCheckoutName } from '../../../scripts/services/checkout.mjs';
import { ownerUrl, withDatabase } from '../../helpers/test-databases.js';

const execFileAsync = promisify(execFile);
const ROOT = new URL('../../../', import.meta.url).pathname;

/**
 * A second checkout on a machine where the first one's Postgres, Redis and ClickHouse run (as they do
 * where the tests run): its bootstrap reuses them, under names of its own.
 */
let second: string | undefined;
let database: string | undefined;

afterAll(async () => {
  if (database?.startsWith('ota_') && database !== 'ota') {
    const admin = new pg.Client({ connectionString: ownerUrl() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  }
  if (second) await rm(second, { recursive: true, force: true });
});

describe('a second checkout on the same machine', () => {
  it('reuses the running services with its own database, ClickHouse database and Redis prefix', async () => {
    second = await mkdtemp(join(tmpdir(), 'ota-second-checkout-'));
    await cp(join(ROOT, 'scripts'), join(second, 'scripts'), { recursive: true });
    await symlink(join(ROOT, 'node_modules'), join(second, 'node_modules'));
    const program = `
      const { ensureCheckoutServices } = await import(${JSON.stringify(join(second, 'scripts/services/ensure-services.mjs'))});
      process.stdout.write(JSON.stringify(await ensureCheckoutServices(${JSON.stringify(second)})));`;
    // Its own environment names no service: it finds them, as `npm start` in a fresh checkout does.
    const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', program], {
      cwd: second,
      env: { PATH: process.env.PATH ?? '', HOME: second },
    });
    const env = JSON.parse(stdout) as Record<string, string>;
    const name = derivedCheckoutName(second);
    expect(name).not.toBe(derivedCheckoutName(ROOT));
    database = new URL(env.DATABASE_URL!).pathname.slice(1);
    expect(database).toBe(name);
    expect(new URL(env.DATABASE_MIGRATION_URL!).pathname).toBe(`/${name}`);
    expect(env.CLICKHOUSE_DATABASE).toBe(name);
    expect(env.REDIS_KEY_PREFIX).toBe(name);
    expect(env.REDIS_URL).toBe(process.env.REDIS_URL);
    expect(env.CLICKHOUSE_URL).toBe(process.env.CLICKHOUSE_URL);

    // Its database exists, and the service role can use it once migrations granted it (as `npm start`).
    const owner = new pg.Client({ connectionString: withDatabase(ownerUrl(), name) });
    await owner.connect();
    const { rows } = await owner.query('SELECT current_database() AS db');
    await owner.end();
    expect(rows[0].db).toBe(name);
  }, 120_000);
});
