// A Postgres database of a benchmark's own (`ota_bench_<hex>`, which is also its Redis key prefix), made by
// the schema owner and reached by the service role as the service would reach it; dropped at the end.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** `databaseUrl`: the schema owner's (DATABASE_MIGRATION_URL); `serviceUrl`: the service role's. */
export async function scratchDatabase(databaseUrl, serviceUrl) {
  const database = `ota_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  admin.on('error', () => {});
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const scratchUrl = new URL(databaseUrl);
  scratchUrl.pathname = `/${database}`;
  const serviceScratchUrl = new URL(serviceUrl);
  serviceScratchUrl.pathname = `/${database}`;
  const db = new pg.Pool({ connectionString: scratchUrl.toString(), max: 2 });
  db.on('error', () => {});
  return {
    database,
    prefix: database,
    /** The owner's pool on the scratch database (migrations, seeding). */
    db,
    /** The service role's URL of the scratch database (the API's DATABASE_URL). */
    serviceScratchUrl,
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => {});
      await admin.end();
    },
  };
}
