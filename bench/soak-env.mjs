// The soak test's scratch world (see bench/soak.mjs): a private Postgres database, ClickHouse database and
// Redis key prefix, a temporary directory (blobs, the receiver's CA), the API and worker processes started
// from dist/ with their warnings and errors captured, an HTTPS webhook receiver that verifies signatures,
// and /proc readings of the children. close() removes everything it made, whatever state the run is in.
import { spawn, spawnSync } from 'node:child_process';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@clickhouse/client';
import { Redis } from 'ioredis';
import pg from 'pg';
import { makeDevCertificate } from '../scripts/dev-certificate.mjs';
import { WORKER_NODE_FLAGS } from '../scripts/node-flags.mjs';
import { freePort } from './free-port.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Resident set size (VmRSS) of a live process in MB, or null once it is gone. */
export function rssMb(pid) {
  try {
    // A zombie (exited, not yet reaped) has a status file without VmRSS.
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? null : Math.round((Number(kb) / 1024) * 10) / 10;
  } catch {
    return null;
  }
}

/** CPU time (user + system) a live process has used, in seconds, or null once it is gone. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return null;
  }
}

/** A child's output, line by line: pino lines at warn (40) or above are counted and the last ones kept. */
function watchOutput(child, proc, label) {
  let rest = '';
  // BENCH_LOG_DIR keeps every line of each process in <dir>/<label>.<pid>.log, for reading a failed run after it.
  const dir = process.env.BENCH_LOG_DIR;
  const file = dir
    ? createWriteStream(join(dir, `${label.replace(/[^\w.-]/g, '_')}.${proc.pid}.log`), { flags: 'a' })
    : null;
  const onData = (chunk) => {
    file?.write(chunk);
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      // pino JSON carries its level; Node's own process warnings (deprecations) count as warnings, and
      // anything else on the console (a stack trace) as an error.
      let level = 50;
      try {
        level = JSON.parse(line).level ?? 50;
      } catch {
        if (line.startsWith('(Use `node --trace-warnings')) continue;
        if (/^\(node:\d+\) /.test(line)) level = 40;
      }
      if (level < 40) continue;
      if (level >= 50) proc.errorLines += 1;
      else proc.warnLines += 1;
      proc.lastLines.push(line.slice(0, 600));
      if (proc.lastLines.length > 40) proc.lastLines.shift();
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
}

/**
 * Starts `node [flags] script` from `root` with `env` as `label` of `world` (its own process group, so a
 * Ctrl-C in the terminal reaches the benchmark, which stops the traffic first), its warn and error lines
 * counted, its exit logged unless `world.stopping` or the benchmark killed it on purpose (`proc.killed`).
 * Answers the record kept in `world.procs[label]`.
 */
export function startService(world, { root, log, label, script, flags = [], env }) {
  const child = spawn(process.execPath, [...flags, script], {
    cwd: root,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc = { child, pid: child.pid, warnLines: 0, errorLines: 0, lastLines: [], exit: null };
  watchOutput(child, proc, label);
  child.on('exit', (code, signal) => {
    proc.exit = code ?? signal;
    if (!world.stopping && !proc.killed) log(`${label} exited during the run (${code ?? signal})`);
  });
  world.children.push(child);
  world.procs[label] = proc;
  return proc;
}

/**
 * The customer's side of webhooks: HTTPS on 127.0.0.1, HMAC of the raw body checked in constant time against
 * the secret registered for the path (401 otherwise), deliveries counted by event, and the delay from the
 * envelope's timestamp to arrival recorded.
 */
export async function startReceiver(tls) {
  /** `onDelivery(envelope, receivedAtMs)`, when set, hears of every verified delivery (the spike benchmark). */
  const receiver = { onDelivery: undefined };
  const secrets = new Map();
  const stats = { received: 0, verified: 0, bad: 0, byEvent: {}, delaysMs: [], ids: new Set(), repeats: 0 };
  const server = createHttpsServer({ ...tls, keepAliveTimeout: 30_000 }, (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      stats.received += 1;
      const secret = secrets.get(req.url);
      const expected = secret
        ? Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`)
        : Buffer.alloc(0);
      const given = Buffer.from(String(req.headers['x-service-signature'] ?? ''));
      if (!secret || given.length !== expected.length || !timingSafeEqual(given, expected)) {
        stats.bad += 1;
        res.writeHead(401).end('bad signature');
        return;
      }
      stats.verified += 1;
      const event = String(req.headers['x-service-event'] ?? '?');
      stats.byEvent[event] = (stats.byEvent[event] ?? 0) + 1;
      const delivery = String(req.headers['x-service-delivery'] ?? '');
      if (stats.ids.has(delivery)) stats.repeats += 1;
      else stats.ids.add(delivery);
      try {
        const envelope = JSON.parse(raw.toString('utf8'));
        stats.delaysMs.push(Date.now() - Date.parse(envelope.timestamp));
        receiver.onDelivery?.(envelope, Date.now());
      } catch {}
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const port = server.address().port;
  Object.assign(receiver, {
    stats,
    url: (path) => `https://127.0.0.1:${port}${path}`,
    expect: (path, secret) => secrets.set(path, secret),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return receiver;
}

/**
 * The scratch world; `env` holds DATABASE_URL, REDIS_URL and CLICKHOUSE_URL (the local services), and
 * `overrides` settings of the processes that replace the soak's own (the hostile benchmark keeps the limits
 * of a real deployment). Returned before anything is made, so the caller holds close() even when start()
 * fails half-way.
 */
export function createWorld(root, env, log, overrides = {}) {
  const id = randomBytes(4).toString('hex');
  const name = `ota_soak_${id}`;
  const dir = mkdtempSync(join(tmpdir(), 'ota-soak-'));
  const world = {
    name,
    prefix: name,
    dir,
    children: [],
    procs: {},
    receiver: null,
    stopping: false,
    created: { postgres: false, clickhouse: false },
  };
  let connected = false;
  // The scratch database is made (and migrated, by migrate.js) as the schema owner; the processes use the
  // service role.
  const ownerUrl = env.DATABASE_MIGRATION_URL || env.DATABASE_URL;
  const admin = new pg.Client({ connectionString: ownerUrl });
  admin.on('error', () => {});
  const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: 2 });
  redis.on('error', () => {});
  const chAdmin = createClient({ url: env.CLICKHOUSE_URL, request_timeout: 60_000 });
  world.redis = redis;

  /** Kills what is still running at once (for process exit and a second Ctrl-C). */
  world.killNow = () => {
    for (const c of world.children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  };

  /** Stops the children (SIGTERM, then SIGKILL after 15 s) and removes every scratch resource. */
  world.close = async () => {
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
    await world.receiver?.close().catch(() => {});
    await world.db?.end().catch(() => {});
    let cursor = '0';
    try {
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${world.prefix}:*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length > 0) await redis.unlink(...keys);
      } while (cursor !== '0');
    } catch (err) {
      log(`could not remove Redis keys ${world.prefix}:* (${err.message})`);
    }
    redis.disconnect();
    if (world.created.postgres) {
      await admin
        .query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
        .catch((err) => log(`could not drop Postgres database ${name} (${err.message})`));
    }
    if (connected) await admin.end().catch(() => {});
    if (world.created.clickhouse) {
      await chAdmin
        .command({ query: `DROP DATABASE IF EXISTS ${name}` })
        .catch((err) => log(`could not drop ClickHouse database ${name} (${err.message})`));
    }
    await chAdmin.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  };

  world.start = async () => {
    // Key names as the build in dist/ makes them (the stream's name carries a hash tag in some versions).
    const { RedisKeys } = await import(join(root, 'dist/src/platform/redis.js'));
    const { eventStreamKey, deadLetterKey } = await import(join(root, 'dist/src/intake/event-stream.js'));
    const keys = new RedisKeys(world.prefix);
    world.streamKey = eventStreamKey(keys);
    world.deadLetterKey = deadLetterKey(keys);
    await admin.connect();
    connected = true;
    await admin.query(`CREATE DATABASE ${name}`);
    world.created.postgres = true;
    const dbUrl = new URL(env.DATABASE_URL);
    dbUrl.pathname = `/${name}`;
    const ownerDbUrl = new URL(ownerUrl);
    ownerDbUrl.pathname = `/${name}`;
    world.created.clickhouse = true; // migrate.js creates it; dropped with IF EXISTS either way
    const tls = makeDevCertificate();
    const caFile = join(dir, 'receiver-ca.pem');
    writeFileSync(caFile, tls.cert);
    world.receiver = await startReceiver(tls);

    const port = await freePort();
    const { WORKERS: _roles, DATABASE_MIGRATION_URL: _owner, ...inherited } = env;
    world.env = {
      ...inherited,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      // Every simulated device comes from 127.0.0.1; the per-address limit of new devices is not soaked.
      RATE_LIMIT_NEW_DEVICES_PER_ADDRESS_PER_HOUR: '0',
      DATABASE_URL: dbUrl.toString(),
      REDIS_KEY_PREFIX: world.prefix,
      CLICKHOUSE_DATABASE: name,
      BLOB_DIR: join(dir, 'blobs'),
      AUTH_TOKEN_SECRET: randomBytes(32).toString('base64url'),
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      NODE_EXTRA_CA_CERTS: caFile,
      // The whole simulated fleet comes from one address: the per-address device limit would stop it.
      RATE_LIMIT_DEVICE_ADDRESS_PER_MINUTE: '1000000000',
      ...overrides,
    };
    world.apiUrl = `http://127.0.0.1:${port}`;

    log(`scratch Postgres and ClickHouse database ${name}, Redis prefix ${world.prefix}:, dir ${dir}`);
    const migrate = spawnSync(process.execPath, ['dist/src/migrate.js'], {
      cwd: root,
      env: { ...world.env, DATABASE_MIGRATION_URL: ownerDbUrl.toString() },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (migrate.status !== 0) throw new Error(`migrations failed (exit ${migrate.status ?? migrate.signal})`);
    world.db = new pg.Pool({ connectionString: world.env.DATABASE_URL, max: 2 });
    world.db.on('error', () => {});

    const start = (label, script, flags = []) =>
      startService(world, { root, log, label, script, flags, env: world.env });
    const api = start('api', 'dist/src/main.js');
    const worker = start('worker', 'dist/workers/main.js', WORKER_NODE_FLAGS);

    const deadline = Date.now() + 60_000;
    for (;;) {
      if (api.exit !== null || worker.exit !== null) throw new Error('the API or the worker exited at start');
      const apiUp = await fetch(`${world.apiUrl}/readyz`)
        .then((r) => r.ok)
        .catch(() => false);
      // The ingest role creates its consumer group on start: the worker is up once the group exists.
      const groups = await redis.xinfo('GROUPS', world.streamKey).catch(() => []);
      if (apiUp && groups.length > 0) break;
      if (Date.now() > deadline) {
        throw new Error(
          apiUp
            ? `the worker did not create the consumer group of ${world.streamKey} within 60 s`
            : 'the API did not answer /readyz within 60 s',
        );
      }
      await sleep(200);
    }
  };
  return world;
}
