// One run of bench/fleet.mjs: fresh databases and key prefix on the benchmark's engines, the five processes,
// the seeded traffic of bench/fleet-traffic.mjs, in the fault run the five kills and restarts, then the
// drain and the figures.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from '@clickhouse/client';
import { Cluster } from 'ioredis';
import pg from 'pg';
import { makeDevCertificate } from '../scripts/dev-certificate.mjs';
import { WORKER_NODE_FLAGS } from '../scripts/node-flags.mjs';
import { eventBatches, push, sendUntilAccepted, setupFleet, VERSIONS } from './fleet-traffic.mjs';
import { freePort } from './free-port.mjs';
import { startReceiver, startService } from './soak-env.mjs';
import { apiClient, Meter, paced } from './soak-traffic.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const CHECK_RATE = 40;
const BATCH_RATE = 8;
const SPIKE_EVERY_S = 15;
/** The faults, in turn, at these shares of the load. */
const FAULTS = [
  ['api', 0.2],
  ['worker', 0.35],
  ['redis', 0.5],
  ['clickhouse', 0.65],
  ['postgres', 0.8],
];

async function waitUntil(what, fn, ms) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await fn().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
    await sleep(250);
  }
}

const ready = (url) =>
  fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) })
    .then((r) => r.ok)
    .catch(() => false);

/** The runs under way: their processes are killed when the benchmark is interrupted. */
const running = new Set();
export function killRunning() {
  for (const w of running) {
    w.stopping = true;
    for (const c of w.children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  }
}

export async function runFleet(base, { load_s, seed, engines, cluster, pg: postgres, root, log, faults }) {
  const name = `ota_fleet_${faults ? 'faults' : 'clean'}_${randomBytes(3).toString('hex')}`;
  const world = { children: [], procs: {}, stopping: false };
  running.add(world);
  const admin = new pg.Client({ connectionString: base.DATABASE_MIGRATION_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const dbUrl = (u) => Object.assign(new URL(u), { pathname: `/${name}` }).toString();
  const tls = makeDevCertificate();
  const caFile = join(root, '.local', `${name}-ca.pem`);
  writeFileSync(caFile, tls.cert);
  const receiver = await startReceiver(tls);
  const { DATABASE_MIGRATION_URL: _owner, WORKERS: _roles, ...inherited } = base;
  const env = {
    ...inherited,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATABASE_URL: dbUrl(base.DATABASE_URL),
    REDIS_URL: engines.OTA_CLUSTER_REDIS_URL,
    REDIS_CLUSTER: 'true',
    REDIS_KEY_PREFIX: name,
    INGEST_STREAMS: '3',
    CLICKHOUSE_URL: engines.OTA_CLUSTER_CLICKHOUSE_URLS.split(',')[0],
    CLICKHOUSE_CLUSTER: engines.OTA_CLUSTER_CLICKHOUSE_NAME,
    CLICKHOUSE_DATABASE: name,
    BLOB_STORE: 's3',
    S3_PREFIX: `${name}/`,
    API_COPIES: '2',
    AUTH_TOKEN_SECRET: randomBytes(32).toString('base64url'),
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    NODE_EXTRA_CA_CERTS: caFile,
    RATE_LIMIT_NEW_DEVICES_PER_ADDRESS_PER_HOUR: '0',
    RATE_LIMIT_DEVICE_ADDRESS_PER_MINUTE: '1000000000',
  };
  const migrate = spawnSync(process.execPath, ['dist/src/migrate.js'], {
    cwd: root,
    env: { ...env, DATABASE_MIGRATION_URL: dbUrl(base.DATABASE_MIGRATION_URL) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (migrate.status !== 0) throw new Error(`migrations failed (exit ${migrate.status ?? migrate.signal})`);

  const ports = { device1: await freePort(), device2: await freePort(), control: await freePort() };
  const url = (label) => `http://127.0.0.1:${ports[label]}`;
  const surface = { device1: 'device', device2: 'device', control: 'control' };
  const startApi = (label) =>
    startService(world, {
      root,
      log,
      label,
      script: 'dist/src/main.js',
      env: { ...env, PORT: String(ports[label]), API_SURFACES: surface[label], TRUST_PROXY: 'loopback' },
    });
  const startWorker = (label) =>
    startService(world, { root, log, label, script: 'dist/workers/main.js', flags: WORKER_NODE_FLAGS, env });
  for (const label of Object.keys(ports)) startApi(label);
  for (const label of ['worker1', 'worker2']) startWorker(label);
  const redis = new Cluster([engines.OTA_CLUSTER_REDIS_URL], { redisOptions: { maxRetriesPerRequest: 3 } });
  redis.on('error', () => {});
  const { RedisKeys } = await import(join(root, 'dist/src/platform/redis.js'));
  const { eventStreamKey, deadLetterKey } = await import(join(root, 'dist/src/intake/event-stream.js'));
  const keys = new RedisKeys(name);
  const streams = [0, 1, 2].map((i) => eventStreamKey(keys, i));
  const deadLetters = [0, 1, 2].map((i) => deadLetterKey(keys, i));
  const groupsReady = async () => {
    for (const s of streams) if ((await redis.xinfo('GROUPS', s)).length === 0) return false;
    return true;
  };
  await waitUntil(
    'the API copies and the workers',
    async () => {
      for (const l of Object.keys(ports)) if (!(await ready(url(l)))) return false;
      return groupsReady();
    },
    120_000,
  );
  log(`${name}: three API copies and two workers up`);

  const control = apiClient(url('control'), null);
  const controlMetered = apiClient(url('control'), null);
  const meter = new Meter();
  const devices = [apiClient(url('device1'), meter), apiClient(url('device2'), meter)];
  const spikeCount = Math.floor(load_s / SPIKE_EVERY_S);
  const fleet = await setupFleet(control.call, receiver, name, spikeCount);
  // Pushes during the load go through a client that does not throw: a fault may answer 5xx.
  const tolerant = async (kind, method, path, opts) => {
    try {
      return await controlMetered.call(kind, method, path, opts);
    } catch (e) {
      return { ok: false, status: Number(/: (\d{3}) /.exec(String(e.message))?.[1] ?? 0), body: null };
    }
  };

  const batches = eventBatches(seed, Math.round(BATCH_RATE * load_s));
  const accepted = new Set();
  const checks = [];
  const spikes = [];
  const faultLog = [];
  const t0 = Date.now();
  const at = () => Math.round((Date.now() - t0) / 100) / 10;

  // Update checks, open loop, alternating copies; every answer kept with its time.
  let checkTurn = 0;
  const check = async () => {
    const i = checkTurn++;
    const app = fleet.apps[i % fleet.apps.length];
    const client = devices[i % 2];
    const started = performance.now();
    const res = await client.call('check', 'POST', '/updates/check', {
      json: {
        app_id: app.id,
        device_id: `${i % 2 ? 'ios' : 'android'}:check-${i % 5000}`,
        platform: i % 2 ? 'ios' : 'android',
        current_module_id: app.releases[VERSIONS[0]],
      },
    });
    checks.push({
      t: at(),
      ms: Math.round((performance.now() - started) * 10) / 10,
      status: res?.status ?? 0,
    });
  };
  const checkStream = paced(CHECK_RATE, 64, check);

  // Event batches in order at BATCH_RATE, never skipped (at most 48 in flight); a push of every app
  // before the first batch of each third, and the rollout raise of the second release half-way.
  const sender = (async () => {
    const giveUpAt = t0 + (load_s + 240) * 1000;
    const inflight = new Set();
    let phase = 0;
    for (const b of batches) {
      const due = t0 + (b.k / BATCH_RATE) * 1000;
      if (due > Date.now()) await sleep(due - Date.now());
      while (inflight.size >= 48) await Promise.race(inflight);
      if (b.phase !== phase) {
        await Promise.all(inflight);
        phase = b.phase;
        for (const app of fleet.apps)
          await push(tolerant, fleet.auth, app, VERSIONS[phase], phase === 1 ? 20 : 100);
        log(`${name}: pushed ${VERSIONS[phase]} of every app at ${at()} s`);
      }
      if (phase === 1 && b.k === Math.floor(batches.length / 2)) {
        for (const app of fleet.apps) {
          for (;;) {
            const r = await tolerant('rollout', 'PATCH', `/modules/${app.releases[VERSIONS[1]]}/rollout`, {
              json: { rollout_pct: 100 },
              auth: fleet.auth,
            });
            if (r?.ok) break;
            await sleep(500);
          }
        }
        log(`${name}: raised the rollout of ${VERSIONS[1]} to 100 % at ${at()} s`);
      }
      const app = fleet.apps[b.app];
      const events = b.events.map((e) => ({ ...e, module_id: app.releases[VERSIONS[b.phase]] }));
      const p = sendUntilAccepted(devices, b.k % 2, app.id, events, accepted, giveUpAt).finally(() =>
        inflight.delete(p),
      );
      inflight.add(p);
    }
    await Promise.all(inflight);
  })();

  // Spike trials, every SPIKE_EVERY_S: 25 activations and 25 errors (25 each) on a spike app of its own, timed from
  // the batch's first send to its error_spike delivery (60 s at most: then counted as missed).
  const spikeTrial = async (i) => {
    const due = t0 + (i * SPIKE_EVERY_S + 5) * 1000;
    if (due > Date.now()) await sleep(due - Date.now());
    const app = fleet.spikes[i];
    const sentAt = at();
    const arrived = new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), 60_000);
      const previous = receiver.onDelivery;
      receiver.onDelivery = (envelope, when) => {
        previous?.(envelope, when);
        if (envelope.event === 'error_spike' && envelope.data.app_id === app.id) {
          clearTimeout(timer);
          resolve(when);
        }
      };
    });
    // Ten networks, five phones each (one address counts only a few devices towards a decision), through
    // the balancer's X-Forwarded-For (the device copies trust loopback).
    const start = Date.now();
    await Promise.all(
      Array.from({ length: 10 }, (_, n) => {
        const events = Array.from({ length: 5 }, (_, p) => ({
          id: `s${i}-${n}-${p}`,
          device_id: `android:spike-${n}-${p}`,
          module_id: app.releases[VERSIONS[0]],
          type: (n * 5 + p) % 2 ? 'error' : 'activation',
        }));
        const headers = { 'x-forwarded-for': `100.${64 + n}.7.9` };
        return sendUntilAccepted(devices, n % 2, app.id, events, accepted, start + 120_000, headers);
      }),
    );
    const when = await arrived;
    spikes.push({ t: sentAt, ms: when === null ? null : when - start });
  };
  const spikeTrials = Promise.all(Array.from({ length: spikeCount }, (_, i) => spikeTrial(i)));

  // The faults, each SIGKILL then a restart once the kill has been seen.
  const faultsDone = (async () => {
    if (!faults) return;
    for (const [kind, share] of FAULTS) {
      const due = t0 + share * load_s * 1000;
      if (due > Date.now()) await sleep(due - Date.now());
      const f = { kind, killed_at_s: at() };
      if (kind === 'api') {
        const p = world.procs.device1;
        p.killed = true;
        p.child.kill('SIGKILL');
        f.detail = 'device API copy 1';
        await sleep(3000);
        startApi('device1');
        await waitUntil('device API copy 1 again', () => ready(url('device1')), 60_000);
      } else if (kind === 'worker') {
        const p = world.procs.worker1;
        p.killed = true;
        p.child.kill('SIGKILL');
        f.detail = 'worker 1 (every role)';
        await sleep(3000);
        startWorker('worker1');
      } else if (kind === 'redis') {
        f.detail = await killRedisMaster(redis, streams[0], cluster);
        f.failover_s = f.detail.failover_s;
        await cluster.ensureRedisNode(f.detail.port);
      } else if (kind === 'clickhouse') {
        const pidfile = join(cluster.shardHome(1), 'clickhouse.pid');
        process.kill(Number(readFileSync(pidfile, 'utf8')), 'SIGKILL');
        f.detail = 'ClickHouse shard 2';
        await sleep(5000);
        await cluster.ensureClickhouseShard(1);
      } else {
        f.detail = `the private Postgres (pid ${postgres.kill()})`;
        await sleep(3000);
        await postgres.start();
      }
      f.restored_at_s = at();
      faultLog.push(f);
      log(`${name}: ${kind} killed at ${f.killed_at_s} s, back at ${f.restored_at_s} s`);
    }
  })();

  await sleep(load_s * 1000);
  await checkStream.stop();
  log(`${name}: load over at ${at()} s; waiting for the last batches and spikes`);
  await Promise.all([sender, spikeTrials, faultsDone]);
  spikes.sort((a, b) => a.t - b.t);
  const loadEndS = at();

  // Drain: every accepted event stored.
  const ch = createClient({ url: env.CLICKHOUSE_URL, database: name, request_timeout: 60_000 });
  const stored = async () => {
    const rs = await ch.query({
      query: `SELECT uniqExact(app_id, event_id) AS n FROM device_events WHERE type != 'check'`,
      format: 'JSONEachRow',
    });
    return Number((await rs.json())[0].n);
  };
  let storedN = null;
  const drainStart = Date.now();
  while (Date.now() - drainStart < 180_000) {
    storedN = await stored().catch(() => null);
    if (storedN !== null && storedN >= accepted.size) break;
    await sleep(1000);
  }
  const drainS = Math.round((Date.now() - drainStart) / 100) / 10;
  await sleep(3000); // the rollups' views are written with the raw rows; a moment for the last part merges
  const perRelease = {};
  for (const app of [...fleet.apps, ...fleet.spikes]) {
    const res = await control.call('read', 'GET', `/apps/${app.id}/modules?limit=20`, { auth: fleet.auth });
    for (const m of res.body.modules) {
      const { downloads, activations, errors, failure_rate } = m.stats;
      perRelease[`${app.name}@${m.version}`] = { downloads, activations, errors, failure_rate };
    }
  }
  // Where the webhooks stand: deliveries by event and status (a delivery still pending at the end was
  // made but not yet received).
  const deliveries = {};
  const db = new pg.Client({ connectionString: env.DATABASE_URL });
  db.on('error', () => {});
  try {
    await db.connect();
    const { rows } = await db.query(
      'SELECT event, status, count(*)::int AS n FROM webhook_deliveries GROUP BY 1, 2 ORDER BY 1, 2',
    );
    for (const r of rows) deliveries[`${r.event} ${r.status}`] = r.n;
  } catch (e) {
    deliveries.error = e.message;
  } finally {
    await db.end().catch(() => {});
  }
  let deadLetterN = 0;
  for (const k of deadLetters) deadLetterN += await redis.xlen(k).catch(() => 0);

  world.stopping = true;
  await Promise.all(
    world.children.map(
      (c) =>
        new Promise((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          c.once('exit', resolve);
          c.kill('SIGTERM');
          setTimeout(() => c.kill('SIGKILL'), 15_000).unref();
        }),
    ),
  );
  await control.close();
  await controlMetered.close();
  for (const d of devices) await d.close();
  await receiver.close();
  await ch
    .command({ query: `DROP DATABASE IF EXISTS ${name} ON CLUSTER ${engines.OTA_CLUSTER_CLICKHOUSE_NAME}` })
    .catch(() => {});
  await ch.close();
  redis.disconnect();
  running.delete(world);
  rmSync(caFile, { force: true });
  const procs = Object.fromEntries(
    Object.entries(world.procs).map(([l, p]) => [
      l,
      { warn_lines: p.warnLines, error_lines: p.errorLines, last_lines: p.lastLines.slice(-12) },
    ]),
  );
  return {
    database: name,
    load_s,
    load_end_s: loadEndS,
    faults: faultLog,
    checks,
    spikes,
    events: { batches: batches.length, accepted: accepted.size, stored: storedN, drain_s: drainS },
    dead_letters: deadLetterN,
    per_release: perRelease,
    requests: meter.total
      ? Object.fromEntries(Object.entries(meter.total).map(([k, c]) => [k, { ...c, ms: undefined }]))
      : {},
    examples: meter.examples,
    processes: procs,
    webhooks: {
      verified: receiver.stats.verified,
      bad: receiver.stats.bad,
      by_event: receiver.stats.byEvent,
    },
    deliveries,
  };
}

/** SIGKILLs the master holding `key`'s slot and waits until its replica has taken the slot over. */
async function killRedisMaster(redis, key, cluster) {
  const slot = (await import('cluster-key-slot')).default(key);
  const masterOf = async () => {
    const nodes = String(await redis.call('CLUSTER', 'NODES'));
    for (const line of nodes.split('\n')) {
      const f = line.split(' ');
      if (!f[2]?.includes('master') || f[2].includes('fail')) continue;
      for (const range of f.slice(8)) {
        const [lo, hi = lo] = range.split('-').map(Number);
        if (slot >= lo && slot <= hi) return Number(f[1].split(':')[1].split('@')[0]);
      }
    }
    return null;
  };
  const port = await masterOf();
  const pid = Number(readFileSync(join(cluster.CLUSTER_DIR, `redis-${port}`, 'redis.pid'), 'utf8'));
  const killedAt = Date.now();
  process.kill(pid, 'SIGKILL');
  await waitUntil(
    'a replica taking over',
    async () => {
      const now = await masterOf();
      return now !== null && now !== port;
    },
    60_000,
  );
  return { port, slot, failover_s: (Date.now() - killedAt) / 1000 };
}
