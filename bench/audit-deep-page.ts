/**
 * Audit log deep-page benchmark (`npm run bench:audit`). Builds a scratch database next to DATABASE_URL,
 * appends 1,000,000 hash-chained entries to one workspace (plus a smaller neighbour), lets VACUUM set the
 * visibility map as autovacuum does for this table, then times GET /audit's query (AuditStore.page) on the
 * first page and on a deep page (offset 999,900), with and without filters, beside the naive one-step
 * query, and the chain verification of the whole workspace. Writes bench/results/audit.json and drops the
 * scratch database (BENCH_KEEP=1 keeps it). BENCH_AUDIT_ENTRIES changes the size.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { verifyAuditChain } from '../src/audit/audit.chain.js';
import { auditPageQuery, PostgresAuditStore } from '../src/audit/audit.postgres-store.js';
import type { AuditFilter } from '../src/audit/audit.store.js';
import { migratePostgres } from '../src/migrations/postgres-migrator.js';
import { projectRoot } from '../src/platform/paths.js';
import { createPool, type Db } from '../src/platform/postgres.js';

const ENTRIES = Number(process.env.BENCH_AUDIT_ENTRIES ?? 1_000_000);
const NEIGHBOUR_ENTRIES = 20_000;
const CHUNK = 50_000;
const RUNS = 7;
const LIMIT = 50;

// One PL/pgSQL loop per chunk: the same chain the writer builds (audit_entry_hash over the previous hash),
// without a network round trip per entry. Every 7th entry is a module.push, every 10th names an app.
const FILL = `
CREATE FUNCTION bench_fill(ws uuid, apps uuid[], n integer, first integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  prev text := coalesce((SELECT hash FROM audit_log WHERE workspace_id = ws ORDER BY seq DESC LIMIT 1), '');
  actions text[] := ARRAY['module.push', 'login', 'app.create', 'rollout.change', 'module.rollback',
                          'member.invite', 'fingerprint.register'];
  act text; app uuid; d jsonb; at timestamptz; h text;
BEGIN
  FOR i IN first .. first + n - 1 LOOP
    act := actions[1 + i % 7];
    app := CASE WHEN i % 10 = 0 THEN apps[1 + (i / 10) % array_length(apps, 1)] END;
    d := jsonb_build_object('n', i, 'old', jsonb_build_object('rollout_pct', i % 100));
    at := clock_timestamp();
    h := audit_entry_hash(prev, ws, app, 'bench@example.com', act, d, at);
    INSERT INTO audit_log (workspace_id, app_id, actor, action, details, created_at, prev_hash, hash)
      VALUES (ws, app, 'bench@example.com', act, d, at, prev, h);
    prev := h;
  END LOOP;
END $$`;

interface Timing {
  median_ms: number;
  min_ms: number;
  max_ms: number;
  rows: number;
}

async function time(fn: () => Promise<number>): Promise<Timing> {
  await fn(); // warm-up: caches as a running service has them
  const samples: number[] = [];
  let rows = 0;
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    rows = await fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  samples.sort((a, b) => a - b);
  const round = (v: number) => Math.round(v * 100) / 100;
  return {
    median_ms: round(samples[Math.floor(samples.length / 2)]!),
    min_ms: round(samples[0]!),
    max_ms: round(samples.at(-1)!),
    rows,
  };
}

async function seed(db: Db): Promise<{ ws: string; apps: string[] }> {
  const user = await db.query<{ id: string }>(
    `INSERT INTO users (email, password_hash) VALUES ('bench@example.com', 'x') RETURNING id`,
  );
  const makeWorkspace = async (name: string) =>
    (
      await db.query<{ id: string }>(
        `INSERT INTO workspaces (name, plan, owner_id) VALUES ($1, 'team', $2) RETURNING id`,
        [name, user.rows[0]!.id],
      )
    ).rows[0]!.id;
  const ws = await makeWorkspace('bench');
  const neighbour = await makeWorkspace('neighbour');
  const apps: string[] = [];
  for (const name of ['ios', 'android', 'web']) {
    const { rows } = await db.query<{ id: string }>(
      'INSERT INTO apps (workspace_id, name) VALUES ($1, $2) RETURNING id',
      [ws, name],
    );
    apps.push(rows[0]!.id);
  }
  await db.query(FILL);
  await db.query('SELECT bench_fill($1, $2, $3, 0)', [neighbour, apps, NEIGHBOUR_ENTRIES]);
  for (let first = 0; first < ENTRIES; first += CHUNK) {
    await db.query('SELECT bench_fill($1, $2, $3, $4)', [ws, apps, Math.min(CHUNK, ENTRIES - first), first]);
    process.stdout.write(`\r  appended ${Math.min(first + CHUNK, ENTRIES).toLocaleString('en')} entries`);
  }
  process.stdout.write('\n');
  return { ws, apps };
}

/** The scans of the deep-page plan: the seq window should be an index-only scan with few heap fetches. */
async function explain(db: Db, ws: string, filter: AuditFilter, offset: number) {
  const q = auditPageQuery(ws, filter, LIMIT + 1, offset);
  const { rows } = await db.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${q.text}`, q.values);
  const plan = (rows[0] as { 'QUERY PLAN': Array<{ Plan: PlanNode; 'Execution Time': number }> })[
    'QUERY PLAN'
  ][0]!;
  return { execution_ms: plan['Execution Time'], scans: scans(plan.Plan) };
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Heap Fetches'?: number;
  'Actual Rows'?: number;
  Plans?: PlanNode[];
}

function scans(node: PlanNode): Array<Record<string, unknown>> {
  const own = node['Node Type'].endsWith('Scan')
    ? [
        {
          node: node['Node Type'],
          index: node['Index Name'] ?? null,
          heap_fetches: node['Heap Fetches'] ?? null,
          rows: node['Actual Rows'] ?? null,
        },
      ]
    : [];
  return [...own, ...(node.Plans ?? []).flatMap(scans)];
}

async function main(): Promise<void> {
  // Everything here (scratch database, migrations, appends) runs as the schema owner when it is given.
  const serverUrl = process.env.DATABASE_MIGRATION_URL || process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('DATABASE_URL is not set');
  const name = `ota_bench_audit_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = createPool(url.toString(), 2);
  try {
    await migratePostgres(db);
    console.log(`scratch database ${name}: appending ${ENTRIES.toLocaleString('en')} entries`);
    let start = Date.now();
    const { ws, apps } = await seed(db);
    const insertSeconds = (Date.now() - start) / 1000;
    start = Date.now();
    await db.query('VACUUM (ANALYZE) audit_log');
    const vacuumSeconds = (Date.now() - start) / 1000;

    const store = new PostgresAuditStore(db);
    const count = async (filter: AuditFilter) => {
      const q = auditPageQuery(ws, filter, 1, 0);
      const where = q.text.match(/WHERE (.*)\n/)![1]!;
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM audit_log WHERE ${where}`,
        q.values.slice(0, -2),
      );
      return rows[0]!.n;
    };
    const filters: Record<string, AuditFilter> = {
      all: {},
      action: { action: 'module.push' },
      app: { appId: apps[0] },
      app_and_action: { appId: apps[0], action: 'module.push' },
    };
    const pages: Record<string, unknown> = {};
    for (const [label, filter] of Object.entries(filters)) {
      const total = await count(filter);
      const deepOffset = Math.max(0, total - 100);
      const page = (offset: number) => async () => (await store.page(ws, filter, LIMIT + 1, offset)).length;
      pages[label] = {
        filter,
        matching_entries: total,
        first_page: await time(page(0)),
        deep_page: { offset: deepOffset, ...(await time(page(deepOffset))) },
        deep_page_plan: await explain(db, ws, filter, deepOffset),
      };
      console.log(`  ${label}: ${JSON.stringify(pages[label])}`);
    }
    const deepOffset = ENTRIES - 100;
    const naive = await time(
      async () =>
        (
          await db.query(
            `SELECT id, seq, actor, action, workspace_id, app_id, details, created_at FROM audit_log
              WHERE workspace_id = $1 ORDER BY seq DESC LIMIT $2 OFFSET $3`,
            [ws, LIMIT + 1, deepOffset],
          )
        ).rowCount ?? 0,
    );
    start = Date.now();
    const chain = await verifyAuditChain(db, ws);
    const verifySeconds = (Date.now() - start) / 1000;
    const { rows: version } = await db.query<{ v: string }>("SELECT current_setting('server_version') AS v");
    const results = {
      benchmark: 'audit-deep-page',
      measured_at: new Date().toISOString(),
      postgres: version[0]!.v,
      node: process.version,
      cpus: cpus().length,
      entries_in_workspace: ENTRIES,
      entries_in_neighbour_workspace: NEIGHBOUR_ENTRIES,
      page_limit: LIMIT,
      runs_per_timing: RUNS,
      append_seconds: insertSeconds,
      vacuum_seconds: vacuumSeconds,
      pages,
      naive_one_step_deep_page: { offset: deepOffset, ...naive },
      chain_verification: { seconds: verifySeconds, entries: chain.entries, ok: chain.ok },
    };
    const dir = join(projectRoot(), 'bench', 'results');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'audit.json'), `${JSON.stringify(results, null, 2)}\n`);
    console.log(`  naive one-step deep page: ${JSON.stringify(naive)}`);
    console.log(`  chain verification: ${verifySeconds}s for ${chain.entries} entries (ok: ${chain.ok})`);
    console.log(`written to ${join(dir, 'audit.json')}`);
  } finally {
    await db.end();
    if (process.env.BENCH_KEEP === '1') console.log(`kept ${name}`);
    else await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
