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

/**
 * One team workspace with one app and one release of it (events must name a release of their app), for the
 * event benchmarks; answers the app's id and the release's.
 */
export async function seedEventApp(db, email) {
  const { rows } = await db.query(
    `WITH u AS (INSERT INTO users (email, password_hash) VALUES ($1, 'x') RETURNING id),
          w AS (INSERT INTO workspaces (name, plan, owner_id) SELECT 'bench', 'team', id FROM u RETURNING id)
     INSERT INTO apps (workspace_id, name) SELECT id, 'bench app' FROM w RETURNING id, workspace_id`,
    [email],
  );
  const appId = rows[0].id;
  const sha = randomBytes(32).toString('hex');
  await db.query('INSERT INTO bundles (app_id, sha256, size) VALUES ($1, $2, 1)', [appId, sha]);
  const release = await db.query(
    `INSERT INTO releases (workspace_id, app_id, version, channel, rollout_pct, sha256, size)
     VALUES ($1, $2, '1.0.0', 'production', 100, $3, 1) RETURNING id`,
    [rows[0].workspace_id, appId, sha],
  );
  return { appId, moduleId: release.rows[0].id };
}
