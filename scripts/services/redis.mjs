// Redis: the project-owned instance on 127.0.0.1:6390 (AOF on, noeviction, data in .local/redis), or
// REDIS_URL as given.
import fs from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { BootstrapError, log } from './log.mjs';
import { tcpOpen, urlHostPort, waitFor, waitPortClosed } from './net.mjs';
import { pidIsProgram, readPidfile, run, tail, which } from './process.mjs';
import { PROJECT_ROOT, REDIS_DIR, REDIS_PIDFILE, REDIS_PORT } from './settings.mjs';

/** One short-lived connection that does not retry: the probe's answer, or the reason it has none. */
async function withRedis(target, fn) {
  const options = {
    lazyConnect: true,
    connectTimeout: 2000,
    commandTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    // A Redis loading its data must answer LOADING, not keep the connection waiting until it is done.
    enableReadyCheck: false,
  };
  const redis =
    typeof target === 'string' ? new Redis(target, options) : new Redis({ ...target, ...options });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return await fn(redis);
  } finally {
    redis.disconnect();
  }
}

const AUTH_ERROR = /^(NOAUTH|WRONGPASS|ERR invalid password|ERR AUTH)/;

export async function waitRedisUrl(url) {
  const { host, port } = urlHostPort(url, 6379);
  await waitFor(`redis (REDIS_URL ${host}:${port})`, async () => {
    try {
      return (await withRedis(url, (r) => r.ping())) === 'PONG' || 'no PONG';
    } catch (e) {
      if (AUTH_ERROR.test(e.message))
        throw new BootstrapError(`redis (REDIS_URL ${host}:${port}): authentication failed: ${e.message}`);
      throw e;
    }
  });
  log(`redis: using REDIS_URL (${host}:${port} reachable)`);
}

/** 'absent' | { loading: true } | { dir, appendonly, fsync, policy, rewriteMin }; throws when the port is taken by something unusable. */
export async function probeRedis(port = REDIS_PORT) {
  if (!(await tcpOpen('127.0.0.1', port, 500))) return 'absent';
  try {
    return await withRedis({ host: '127.0.0.1', port }, async (r) => {
      await r.ping();
      const [, dir = ''] = await r.config('GET', 'dir');
      const [, appendonly = ''] = await r.config('GET', 'appendonly');
      const [, fsync = ''] = await r.config('GET', 'appendfsync');
      const [, policy = ''] = await r.config('GET', 'maxmemory-policy');
      const [, rewriteMin = ''] = await r.config('GET', 'auto-aof-rewrite-min-size');
      return { dir, appendonly, fsync, policy, rewriteMin };
    });
  } catch (e) {
    if (/^LOADING/.test(e.message)) return { loading: true };
    throw new BootstrapError(
      `redis: port ${port} is taken by something that does not answer as Redis (${e.message}); free it or set REDIS_URL`,
    );
  }
}

/**
 * Stops it without saving, then waits for the port to close; false when it stays open. NOW FORCE (Redis 7)
 * because a Redis that lost its data folder, or is still writing its first AOF, refuses a plain SHUTDOWN;
 * an older Redis, which does not know those words, gets the plain one.
 */
export async function shutdownRedis(port = REDIS_PORT) {
  await withRedis({ host: '127.0.0.1', port }, async (r) => {
    try {
      await r.call('SHUTDOWN', 'NOSAVE', 'NOW', 'FORCE');
    } catch (e) {
      if (/syntax error/i.test(e.message)) await r.call('SHUTDOWN', 'NOSAVE');
    }
  }).catch(() => {});
  return waitPortClosed(port);
}

/**
 * The AOF size below which Redis does not rewrite it. The event stream's entries pass through the AOF at
 * tens of MB/s under load while the stream itself stays small (entries are deleted once stored): at
 * Redis's default of 64 MB it forked a rewrite every 2 s, and the rewrites cost the machine about 0.8 µs of
 * CPU per event accepted (bench/profiles.md). At 512 MB they come about every 15 s under full load.
 */
export const AOF_REWRITE_MIN_BYTES = 512 * 1024 * 1024;

/** Turns on what the project's Redis needs (AOF synced before each answer, noeviction); answers what it changed. */
export async function fixRedisSettings(state, port = REDIS_PORT) {
  const fixes = [];
  if (state.appendonly !== 'yes') fixes.push(['appendonly', 'yes']);
  if (state.fsync !== 'always') fixes.push(['appendfsync', 'always']);
  if (state.policy !== 'noeviction') fixes.push(['maxmemory-policy', 'noeviction']);
  if (Number(state.rewriteMin) < AOF_REWRITE_MIN_BYTES)
    fixes.push(['auto-aof-rewrite-min-size', String(AOF_REWRITE_MIN_BYTES)]);
  if (fixes.length > 0)
    await withRedis({ host: '127.0.0.1', port }, async (r) => {
      for (const [name, value] of fixes) await r.config('SET', name, value);
    });
  return fixes.map(([name]) => name);
}

async function startRedis() {
  const bin = which('redis-server');
  if (!bin) throw new BootstrapError('redis: redis-server not found');
  fs.mkdirSync(REDIS_DIR, { recursive: true });
  const logfile = path.join(REDIS_DIR, 'redis.log');
  const stale = readPidfile(REDIS_PIDFILE);
  if (stale && !pidIsProgram(stale, 'redis')) fs.rmSync(REDIS_PIDFILE, { force: true });
  const args = [
    '--port',
    String(REDIS_PORT),
    '--bind',
    '127.0.0.1',
    '--daemonize',
    'yes',
    '--dir',
    REDIS_DIR,
    '--pidfile',
    REDIS_PIDFILE,
    '--logfile',
    logfile,
    '--appendonly',
    'yes',
    // `always`: Redis writes and syncs the AOF before it answers, so an accepted event survives a killed
    // Redis and a power cut. With `everysec` Redis answers first whenever a background fsync is still
    // running (up to 2 s), and a SIGKILL then loses writes it has acknowledged (docs/reference/telemetry.md,
    // "Accepted means durable").
    '--appendfsync',
    'always',
    '--maxmemory-policy',
    'noeviction',
    '--auto-aof-rewrite-min-size',
    String(AOF_REWRITE_MIN_BYTES),
  ];
  const r = run(bin, args, { cwd: REDIS_DIR, timeoutMs: 30_000 });
  if (!r.ok)
    throw new BootstrapError(
      `redis: redis-server failed to start: ${(r.stderr || r.stdout).trim()}\n${tail(logfile)}`,
    );
  try {
    await waitFor(
      `redis on ${REDIS_PORT}`,
      async () => {
        const p = await probeRedis();
        return (p !== 'absent' && !p.loading) || 'not answering yet';
      },
      30_000,
    );
  } catch (e) {
    throw new BootstrapError(`${e.message}\n--- ${logfile}\n${tail(logfile)}`);
  }
  log(`redis: started on ${REDIS_PORT} (AOF, data ${path.relative(PROJECT_ROOT, REDIS_DIR)})`);
}

export async function ensureRedis(state) {
  const url = `redis://127.0.0.1:${REDIS_PORT}`;
  if (state === 'absent') {
    await startRedis();
    return url;
  }
  if (state.loading) {
    await waitFor(`redis on ${REDIS_PORT} (loading its data)`, async () => {
      const p = await probeRedis();
      return (p !== 'absent' && !p.loading) || 'loading';
    });
    state = await probeRedis();
    if (state === 'absent') {
      await startRedis();
      return url;
    }
  }
  if (!state.dir || !fs.existsSync(state.dir)) {
    log(
      `redis: instance on ${REDIS_PORT} has lost its data dir (${state.dir || 'deleted'}); shutting it down`,
    );
    if (!(await shutdownRedis()))
      throw new BootstrapError(`redis: the old instance on ${REDIS_PORT} did not shut down`);
    await startRedis();
    return url;
  }
  const fixes = await fixRedisSettings(state);
  log(
    `redis: reusing instance on ${REDIS_PORT} (dir ${state.dir})${fixes.length ? ` (set ${fixes.join(', ')})` : ''}`,
  );
  return url;
}
