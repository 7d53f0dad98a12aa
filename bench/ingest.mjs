// Ingest benchmark (`npm run bench:ingest`): builds the project if stale, starts the API and one ingest worker from
// dist/ on a private Postgres database, ClickHouse database and Redis prefix, posts batches of 100 events
// at full speed to 127.0.0.1 for BENCH_SECONDS, then waits until ClickHouse holds every accepted event.
// The baseline, driven the same way for the same time just before: a bare Fastify server
// (bench/hello-server.mjs) that parses each batch and answers 202 without validating or storing anything;
// `ratio` is the API's events/s over the baseline's, `cpu_ratio` the baseline's CPU per event over the API's.
// Writes bench/results/ingest.json. Needs DATABASE_URL, REDIS_URL and CLICKHOUSE_URL.
// BENCH_API_NODE_ARGS / BENCH_WORKER_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profile them.
// The build is skipped when dist/ is newer than the sources (scripts/build.mjs), or with --no-build.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@clickhouse/client';
import { Redis } from 'ioredis';
import pg from 'pg';
import { Pool } from 'undici';
import { buildIfStale } from '../scripts/build.mjs';
import { WORKER_NODE_FLAGS } from '../scripts/node-flags.mjs';
import { drive, percentileOf, waitHealthy } from './event-load.mjs';
import { freePort } from './free-port.mjs';
import { cpuSeconds, peakRssMb, storesCpuSeconds } from './process-cpu.mjs';
import { seedEventApp } from './scratch-database.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const BATCH = 100;
const DRAIN_TIMEOUT_MS = 180_000;

for (const name of ['DATABASE_URL', 'REDIS_URL', 'CLICKHOUSE_URL']) {
  if (!process.env[name]) {
    console.error(`${name} is not set (the benchmark uses the same services as the tests)`);
    process.exit(2);
  }
}

const id = randomBytes(4).toString('hex');
const dbName = `ota_bench_${id}`;
const prefix = `ota_bench_${id}`;
const log = (msg) => console.log(`[bench] ${msg}`);

function withDatabase(url, name) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The machine's load while the benchmark ran (it shares the cores with everything else). */
function loadAverage() {
  const [m1, m5, m15] = readFileSync('/proc/loadavg', 'utf8').split(' ').map(Number);
  return { '1m': m1, '5m': m5, '15m': m15 };
}

function start(script, env, nodeArgs = '', flags = []) {
  const args = [...flags, ...nodeArgs.split(' ').filter(Boolean), join(root, script)];
  const child = spawn(process.execPath, args, {
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`[bench] ${script} exited early (${code ?? signal})`);
      process.exitCode = 1;
    }
  });
  return child;
}

let stopping = false;
// The scratch database is made, migrated and seeded by the schema owner; the processes use the service role.
const ownerUrl = process.env.DATABASE_MIGRATION_URL || process.env.DATABASE_URL;
const admin = new pg.Client({ connectionString: ownerUrl });
const chAdmin = createClient({ url: process.env.CLICKHOUSE_URL, request_timeout: 60_000 });
const redis = new Redis(process.env.REDIS_URL);
const children = [];

async function main() {
  if (!process.argv.includes('--no-build')) buildIfStale(root, log);
  const { migratePostgres } = await import(join(root, 'dist/src/migrations/postgres-migrator.js'));
  const { migrateClickHouse } = await import(join(root, 'dist/src/migrations/clickhouse-migrator.js'));

  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const databaseUrl = withDatabase(process.env.DATABASE_URL, dbName);
  const db = new pg.Pool({ connectionString: withDatabase(ownerUrl, dbName), max: 2 });
  await migratePostgres(db, undefined, {
    serviceRole: decodeURIComponent(new URL(process.env.DATABASE_URL).username),
  });
  const { appId, moduleId } = await seedEventApp(db, `bench-${id}@example.com`);
  await db.end();
  await chAdmin.command({ query: `CREATE DATABASE IF NOT EXISTS ${dbName}` });
  const ch = createClient({ url: process.env.CLICKHOUSE_URL, database: dbName, request_timeout: 60_000 });
  await migrateClickHouse(ch);

  const port = await freePort();
  const env = {
    PATH: process.env.PATH ?? '',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL,
    REDIS_KEY_PREFIX: prefix,
    CLICKHOUSE_URL: process.env.CLICKHOUSE_URL,
    CLICKHOUSE_DATABASE: dbName,
    AUTH_TOKEN_SECRET: randomBytes(32).toString('hex'),
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
    // The whole simulated fleet comes from one address: the per-address device limit would stop it.
    RATE_LIMIT_DEVICE_ADDRESS_PER_MINUTE: '1000000000',
    INGEST_BATCH_SIZE: process.env.INGEST_BATCH_SIZE ?? '100000',
    INGEST_FLUSH_MS: process.env.INGEST_FLUSH_MS ?? '1000',
  };
  const api = start('dist/src/main.js', env, process.env.BENCH_API_NODE_ARGS);
  const worker = start(
    'dist/workers/main.js',
    { ...env, WORKERS: 'ingest' },
    process.env.BENCH_WORKER_NODE_ARGS,
    WORKER_NODE_FLAGS,
  );
  children.push(api, worker);

  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: CONNECTIONS, pipelining: 1 });
  await waitHealthy(pool, 'the API');

  // One body template per batch; "§" is replaced by a request number so every event id is unique.
  const kinds = [...Array(40).fill('download'), ...Array(50).fill('activation'), ...Array(10).fill('error')];
  const parts = JSON.stringify({
    app_id: appId,
    events: kinds.map((type, i) => ({ id: `§-${i}`, device_id: `dev-${i}-§`, module_id: moduleId, type })),
  }).split('§');

  // The baseline first, on a port of its own, with the same client and bodies.
  const basePort = await freePort();
  const hello = start('bench/hello-server.mjs', { PATH: process.env.PATH ?? '', PORT: String(basePort) });
  children.push(hello);
  const basePool = new Pool(`http://127.0.0.1:${basePort}`, { connections: CONNECTIONS, pipelining: 1 });
  await waitHealthy(basePool, 'the baseline server');
  log(`baseline: batches of ${BATCH} events for ${SECONDS} s over ${CONNECTIONS} connections`);
  const helloCpu = cpuSeconds(hello.pid);
  const base = await drive(basePool, parts, SECONDS, CONNECTIONS);
  const baseCpu = cpuSeconds(hello.pid) - helloCpu;
  await basePool.close();
  stopping = true;
  hello.kill('SIGTERM');
  await new Promise((r) => (hello.exitCode === null ? hello.once('exit', r) : r()));
  stopping = false;

  log(`API: batches of ${BATCH} events for ${SECONDS} s over ${CONNECTIONS} connections`);
  const cpuBefore = {
    api: cpuSeconds(api.pid),
    worker: cpuSeconds(worker.pid),
    client: process.cpuUsage(),
    ...(await storesCpuSeconds(redis)),
  };
  const started = Date.now();
  const { accepted, requests, failed, latencies } = await drive(pool, parts, SECONDS, CONNECTIONS);
  const loadEnded = Date.now();
  const loadSeconds = (loadEnded - started) / 1000;
  log(`accepted ${accepted} events in ${loadSeconds.toFixed(1)} s; waiting for ClickHouse`);

  let stored = 0;
  let lagMs = null;
  while (Date.now() - loadEnded < DRAIN_TIMEOUT_MS) {
    const rs = await ch.query({ query: 'SELECT count() AS n FROM device_events', format: 'JSONEachRow' });
    stored = Number((await rs.json())[0].n);
    if (stored >= accepted) {
      lagMs = Date.now() - loadEnded;
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const storesAfter = await storesCpuSeconds(redis);
  const clientCpu = process.cpuUsage(cpuBefore.client);
  const tenth = (x) => Math.round(x * 10) / 10;
  const cpu = {
    api: tenth(cpuSeconds(api.pid) - cpuBefore.api),
    worker: tenth(cpuSeconds(worker.pid) - cpuBefore.worker),
    redis: tenth(storesAfter.redis - cpuBefore.redis),
    clickhouse: tenth(storesAfter.clickhouse - cpuBefore.clickhouse),
    load_client: tenth((clientCpu.user + clientCpu.system) / 1e6),
  };
  const cpuAll = cpu.api + cpu.worker + cpu.redis + cpu.clickhouse + cpu.load_client;
  const perEvent = (seconds) => Math.round((seconds / Math.max(1, accepted)) * 1e7) / 10;
  const exact = await ch.query({
    query: 'SELECT uniqExact(event_id) AS n FROM device_events',
    format: 'JSONEachRow',
  });
  stored = Number((await exact.json())[0].n);

  latencies.sort((a, b) => a - b);
  const pct = (p) => percentileOf(latencies, p);
  base.latencies.sort((a, b) => a - b);
  const apiEps = Math.round(accepted / loadSeconds);
  const baseEps = Math.round(base.accepted / base.seconds);
  const baseCpuPerEvent = Math.round((baseCpu / Math.max(1, base.accepted)) * 1e7) / 10;
  const result = {
    date: new Date().toISOString(),
    duration_s: Math.round(loadSeconds * 10) / 10,
    connections: CONNECTIONS,
    batch_size: BATCH,
    requests,
    failed_requests: failed,
    events_per_second_accepted: apiEps,
    accepted,
    stored,
    stored_equals_accepted: stored === accepted,
    lag_ms: lagMs,
    latency_ms: { p50: pct(0.5), p99: pct(0.99) },
    peak_rss_mib: { api: peakRssMb(api.pid), worker: peakRssMb(worker.pid) },
    // CPU the processes used from the start of the load until every row was visible: a figure that
    // holds on a busy machine, where events/s depends on what else runs.
    cpu_seconds: cpu,
    cpu_us_per_event: {
      api: perEvent(cpu.api),
      worker: perEvent(cpu.worker),
      redis: perEvent(cpu.redis),
      clickhouse: perEvent(cpu.clickhouse),
      load_client: perEvent(cpu.load_client),
      all: perEvent(cpuAll),
    },
    // Events/s this machine could take if every core did nothing but this pipeline at its measured CPU per
    // event, and the same without the API (what the stores, the ingest worker and the load client cost).
    machine_ceiling_events_per_second: {
      cores: cpus().length,
      whole_pipeline: Math.round((cpus().length * accepted) / Math.max(0.1, cpuAll)),
      with_a_free_api: Math.round((cpus().length * accepted) / Math.max(0.1, cpuAll - cpu.api)),
    },
    baseline: {
      server: 'bare Fastify 5 parsing the batch, answering 202 (bench/hello-server.mjs)',
      events_per_second: baseEps,
      latency_ms: { p50: percentileOf(base.latencies, 0.5), p99: percentileOf(base.latencies, 0.99) },
      cpu_us_per_event: baseCpuPerEvent,
    },
    ratio: Math.round((apiEps / Math.max(1, baseEps)) * 100) / 100,
    // The API's CPU per event compared with the baseline's: what validation, encoding and the XADD cost.
    cpu_ratio: Math.round((baseCpuPerEvent / Math.max(0.1, (cpu.api / accepted) * 1e6)) * 100) / 100,
    load_average: loadAverage(),
    ingest: { batch_size: Number(env.INGEST_BATCH_SIZE), flush_ms: Number(env.INGEST_FLUSH_MS) },
  };
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(join(root, 'bench/results/ingest.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
  await pool.close();
  await ch.close();
  if (!result.stored_equals_accepted) process.exitCode = 1;
}

async function cleanup() {
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  await Promise.all(
    children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : undefined)),
  );
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
  await admin.end().catch(() => {});
  await chAdmin.command({ query: `DROP DATABASE IF EXISTS ${dbName}` }).catch(() => {});
  await chAdmin.close();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== '0');
  redis.disconnect();
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(cleanup);
