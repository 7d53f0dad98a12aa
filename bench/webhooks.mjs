// Webhook benchmark (`npm run bench:webhooks`, after a build): deliveries/s to a local HTTPS receiver; the
// same with one endpoint hanging until the timeout (the healthy endpoints' throughput drop); and error-spike
// latency, from the crossing batch's counters being written (and its evaluation enqueued, as ingest does)
// to the error_spike webhook received, p50/p95. Uses DATABASE_URL and REDIS_URL (a scratch database and key
// prefix, removed at the end) and sends traffic only to 127.0.0.1. Writes bench/results/webhooks.json.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import pg from 'pg';
import { makeDevCertificate } from '../scripts/dev-certificate.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', 'dist');
const { loadConfig } = await import(join(dist, 'src/config/config.js'));
const { createContainer } = await import(join(dist, 'src/container.js'));
const { migratePostgres } = await import(join(dist, 'src/migrations/postgres-migrator.js'));
const { createPool, transaction } = await import(join(dist, 'src/platform/postgres.js'));
const { createBlockingRedis } = await import(join(dist, 'src/platform/redis.js'));
const { QUEUES } = await import(join(dist, 'src/platform/queues.js'));
const { addDeviceCounts, minuteOf } = await import(join(dist, 'src/spikes/failure-counters.js'));
const { encryptSecret, generateSigningSecret } = await import(join(dist, 'src/webhooks/secret-box.js'));
const { createWebhooksWorker } = await import(join(dist, 'workers/webhooks.worker.js'));
const { createSpikesWorker } = await import(join(dist, 'workers/spikes.worker.js'));

const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 10);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1000);
const HANG_TIMEOUT_MS = Number(process.env.BENCH_HANG_TIMEOUT_MS ?? 2000);
const SPIKE_TRIALS = Number(process.env.BENCH_SPIKE_TRIALS ?? 30);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
// The scratch database is made and migrated by the schema owner; the service processes use their own role.
const serviceBaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const baseUrl = process.env.DATABASE_MIGRATION_URL || serviceBaseUrl;
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const id = randomBytes(4).toString('hex');
const dbName = `ota_bench_webhooks_${id}`;

function withDb(url, name) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin(sql) {
  const c = new pg.Client({ connectionString: baseUrl });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const { key, cert } = makeDevCertificate();
  const receiver = fork(join(here, 'webhook-receiver.mjs'), [], {
    env: { ...process.env, BENCH_KEY: key, BENCH_CERT: cert },
  });
  const waiters = new Set();
  receiver.on('message', (m) => {
    for (const w of waiters) w(m);
  });
  const next = (pred) =>
    new Promise((resolve) => {
      const w = (m) => {
        if (pred(m)) {
          waiters.delete(w);
          resolve(m);
        }
      };
      waiters.add(w);
    });
  const port = (await next((m) => m.type === 'ready')).port;
  const stats = async () => {
    const p = next((m) => m.type === 'stats');
    receiver.send({ type: 'stats' });
    return p;
  };

  await admin(`CREATE DATABASE ${dbName}`);
  const databaseUrl = withDb(serviceBaseUrl, dbName);
  const migrator = createPool(withDb(baseUrl, dbName), 1);
  await migratePostgres(migrator, undefined, {
    serviceRole: decodeURIComponent(new URL(serviceBaseUrl).username),
  });
  await migrator.end();

  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: `ota_bench_webhooks_${id}`,
    CLICKHOUSE_URL: process.env.CLICKHOUSE_URL ?? 'http://127.0.0.1:8123',
    AUTH_TOKEN_SECRET: randomBytes(32).toString('hex'),
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_TIMEOUT_MS: String(HANG_TIMEOUT_MS),
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
    // Any WEBHOOK_* setting given to the benchmark applies (concurrency, per-endpoint limit).
    ...Object.fromEntries(
      Object.entries(process.env).filter(([k]) => k.startsWith('WEBHOOK_') && k !== 'WEBHOOK_SECRET_KEY'),
    ),
  };
  const config = loadConfig(env);
  const deps = createContainer(config, { name: 'bench', poolSize: 20 });
  const db = deps.db;
  const results = {
    load_average_1m_at_start: Number(loadavg()[0].toFixed(2)),
    config: {
      rounds: ROUNDS,
      endpoints: ENDPOINTS,
      events: EVENTS,
      hang_timeout_ms: HANG_TIMEOUT_MS,
      concurrency: config.webhooks.concurrency,
      per_endpoint_concurrency: config.webhooks.perEndpointConcurrency,
    },
  };
  const webhooksWorker = createWebhooksWorker(deps, { ca: cert });
  const spikesWorker = createSpikesWorker(deps);

  try {
    const user = await db.query("INSERT INTO users (email, password_hash) VALUES ($1, 'x') RETURNING id", [
      `bench-${id}@example.com`,
    ]);
    const workspace = async (name) =>
      (
        await db.query('INSERT INTO workspaces (name, owner_id) VALUES ($1, $2) RETURNING id', [
          name,
          user.rows[0].id,
        ])
      ).rows[0].id;
    const secrets = {};
    const hook = async (ws, path, events) => {
      const secret = generateSigningSecret();
      secrets[path] = secret;
      await db.query(
        'INSERT INTO webhooks (workspace_id, url, events, secret_ciphertext) VALUES ($1, $2, $3, $4)',
        [ws, `https://127.0.0.1:${port}${path}`, events, encryptSecret(config.webhooks.secretKey, secret)],
      );
    };

    await webhooksWorker.start();
    await spikesWorker.start();

    const run = async (label, hanging) => {
      const ws = await workspace(label);
      const paths = Array.from({ length: ENDPOINTS }, (_, i) => `/${label}/${i}`);
      for (const p of paths) await hook(ws, p, ['release.pushed']);
      if (hanging) await hook(ws, `/hang/${label}`, ['release.pushed']);
      receiver.send({ type: 'secrets', secrets });
      const expected = ENDPOINTS * EVENTS;
      const deferredBefore = webhooksWorker.deferredAttempts();
      const started = performance.now();
      await transaction(db, async (tx) => {
        await tx.query(
          `INSERT INTO webhook_outbox (workspace_id, event, data)
           SELECT $1, 'release.pushed', jsonb_build_object('app_id', 'bench', 'version', '1.0.' || g, 'rollout_pct', 100)
             FROM generate_series(1, $2) g`,
          [ws, EVENTS],
        );
      });
      let got = 0;
      while (got < expected) {
        await sleep(20);
        const s = await stats();
        got = paths.reduce((n, p) => n + (s.counts[p] ?? 0), 0);
        if (performance.now() - started > 300_000)
          throw new Error(`${label}: only ${got}/${expected} after 300 s`);
      }
      const seconds = (performance.now() - started) / 1000;
      return {
        deferred_attempts: webhooksWorker.deferredAttempts() - deferredBefore,
        deliveries: expected,
        seconds: Number(seconds.toFixed(3)),
        deliveries_per_s: Math.round(expected / seconds),
      };
    };

    // Healthy and hanging runs alternate, and medians are compared, so that load from other work on the
    // machine falls on both sides alike.
    await run('warmup', false);
    const healthy = [];
    const hangingRuns = [];
    for (let round = 1; round <= ROUNDS; round++) {
      healthy.push(await run(`healthy${round}`, false));
      console.log(
        `healthy: ${healthy.at(-1).deliveries_per_s} deliveries/s (${healthy.at(-1).deferred_attempts} deferred)`,
      );
      if (process.env.BENCH_ONLY === 'throughput') continue;
      hangingRuns.push(await run(`hanging${round}`, true));
      // The hanging endpoint's backlog (and its retries) must not weigh on the next runs.
      await db.query("DELETE FROM webhooks WHERE url LIKE '%/hang/%'");
      console.log(
        `one endpoint hanging ${HANG_TIMEOUT_MS} ms: ${hangingRuns.at(-1).deliveries_per_s} deliveries/s to the others`,
      );
    }
    const median = (runs) =>
      percentile(
        runs.map((r) => r.deliveries_per_s),
        50,
      );
    results.throughput = { median_deliveries_per_s: median(healthy), runs: healthy };
    if (process.env.BENCH_ONLY === 'throughput') return;
    const drop = 1 - median(hangingRuns) / median(healthy);
    results.with_hanging_endpoint = {
      median_deliveries_per_s: median(hangingRuns),
      drop_pct: Number((drop * 100).toFixed(1)),
      runs: hangingRuns,
    };
    console.log(
      `median: ${median(healthy)} deliveries/s; with one endpoint hanging: ${median(hangingRuns)} deliveries/s to the others (drop ${results.with_hanging_endpoint.drop_pct} %)`,
    );

    const spikeWs = await workspace('spikes');
    await hook(spikeWs, '/spike', ['error_spike']);
    receiver.send({ type: 'secrets', secrets });
    const producer = createBlockingRedis(redisUrl);
    const queue = new Queue(QUEUES.spikes, { connection: producer, prefix: deps.keys.queuePrefix });
    const latencies = [];
    for (let i = 0; i < SPIKE_TRIALS; i++) {
      const app = (
        await db.query('INSERT INTO apps (workspace_id, name) VALUES ($1, $2) RETURNING id', [
          spikeWs,
          `app${i}`,
        ])
      ).rows[0].id;
      const sha = randomBytes(32).toString('hex');
      await db.query('INSERT INTO bundles (app_id, sha256, size) VALUES ($1, $2, 1)', [app, sha]);
      const rel = (
        await db.query(
          `INSERT INTO releases (workspace_id, app_id, version, channel, rollout_pct, sha256, size) VALUES ($1, $2, '1.0.0', 'production', 100, $3, 1) RETURNING id`,
          [spikeWs, app, sha],
        )
      ).rows[0].id;
      const target = { appId: app, moduleId: rel, minute: minuteOf(Date.now()) };
      const devices = (kind, n) => Array.from({ length: n }, (_, d) => `${kind}-${i}-${d}`);
      await addDeviceCounts(deps.redis, deps.keys, target, { activations: devices('ok', 900) });
      await queue.add('evaluate', { appId: app }, { removeOnComplete: true });
      await sleep(30);
      const arrived = next((m) => m.type === 'spike' && m.appId === app);
      const t0 = Date.now();
      await addDeviceCounts(deps.redis, deps.keys, target, { errors: devices('bad', 100) }); // the crossing batch
      await queue.add('evaluate', { appId: app }, { removeOnComplete: true });
      const m = await Promise.race([arrived, sleep(30_000).then(() => null)]);
      if (!m) throw new Error('spike webhook did not arrive within 30 s');
      latencies.push(m.at - t0);
    }
    await queue.close();
    await producer.quit();
    results.spike_latency_ms = {
      trials: latencies.length,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      max: Math.max(...latencies),
    };
    console.log(
      `error_spike latency: p50 ${results.spike_latency_ms.p50} ms, p95 ${results.spike_latency_ms.p95} ms over ${latencies.length} trials`,
    );
    results.bad_signatures = (await stats()).bad;
  } finally {
    await Promise.allSettled([webhooksWorker.stop(), spikesWorker.stop()]);
    let cursor = '0';
    do {
      const [nextCursor, keys] = await deps.redis.scan(
        cursor,
        'MATCH',
        `ota_bench_webhooks_${id}:*`,
        'COUNT',
        1000,
      );
      cursor = nextCursor;
      if (keys.length) await deps.redis.unlink(...keys);
    } while (cursor !== '0');
    await deps.close();
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    receiver.send({ type: 'stop' });
  }
  results.measured_at = new Date().toISOString();
  // The machine is shared: the load average says how much of it the run had.
  results.load_average_1m_at_end = Number(loadavg()[0].toFixed(2));
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', 'webhooks.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log('wrote bench/results/webhooks.json');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
