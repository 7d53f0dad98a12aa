// Redis: the project-owned instance on 127.0.0.1:6390 (AOF on, noeviction, data in .local/redis), or
// REDIS_URL as given.
import fs from 'node:fs';
import path from 'node:path';
import { BootstrapError, log } from './log.mjs';
import { redisCommands, tcpOpen, urlHostPort, waitFor, waitPortClosed } from './net.mjs';
import { pidIsProgram, readPidfile, run, tail, which } from './process.mjs';
import { PROJECT_ROOT, REDIS_DIR, REDIS_PIDFILE, REDIS_PORT } from './settings.mjs';

export async function waitRedisUrl(url) {
  const { u, host, port } = urlHostPort(url, 6379);
  if (u.protocol === 'rediss:') {
    await waitFor(`redis (REDIS_URL ${host}:${port})`, () => tcpOpen(host, port));
  } else {
    const cmds = [];
    if (u.password)
      cmds.push(
        u.username
          ? ['AUTH', decodeURIComponent(u.username), decodeURIComponent(u.password)]
          : ['AUTH', decodeURIComponent(u.password)],
      );
    cmds.push(['PING']);
    await waitFor(`redis (REDIS_URL ${host}:${port})`, async () => {
      const replies = await redisCommands(host, port, cmds);
      const bad = replies.find((r) => r && typeof r === 'object' && r.error);
      if (bad && /^(NOAUTH|WRONGPASS|ERR invalid password)/.test(bad.error)) {
        throw new BootstrapError(`redis (REDIS_URL ${host}:${port}): authentication failed: ${bad.error}`);
      }
      return replies.at(-1) === 'PONG' || (bad ? bad.error : 'no PONG');
    }).catch((e) => {
      throw e instanceof BootstrapError ? e : new BootstrapError(e.message);
    });
  }
  log(`redis: using REDIS_URL (${host}:${port} reachable)`);
}

/** 'absent' | { dir, appendonly, policy } | throws when the port is taken by something unusable. */
export async function probeRedis() {
  if (!(await tcpOpen('127.0.0.1', REDIS_PORT, 500))) return 'absent';
  let replies;
  try {
    replies = await redisCommands('127.0.0.1', REDIS_PORT, [
      ['PING'],
      ['CONFIG', 'GET', 'dir'],
      ['CONFIG', 'GET', 'appendonly'],
      ['CONFIG', 'GET', 'maxmemory-policy'],
    ]);
  } catch (e) {
    throw new BootstrapError(
      `redis: port ${REDIS_PORT} is taken by something that does not answer as Redis (${e.message}); free it or set REDIS_URL`,
    );
  }
  if (replies[0] !== 'PONG') {
    const err = replies[0]?.error ?? JSON.stringify(replies[0]);
    if (/^LOADING/.test(err)) return { loading: true };
    throw new BootstrapError(
      `redis: the Redis on ${REDIS_PORT} refuses PING (${err}); free the port or set REDIS_URL`,
    );
  }
  const val = (r) => (Array.isArray(r) ? (r[1] ?? '') : '');
  return { dir: val(replies[1]), appendonly: val(replies[2]), policy: val(replies[3]) };
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
    '--appendfsync',
    'everysec',
    '--maxmemory-policy',
    'noeviction',
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
    await redisCommands('127.0.0.1', REDIS_PORT, [['SHUTDOWN', 'NOSAVE']]).catch(() => {});
    if (!(await waitPortClosed(REDIS_PORT)))
      throw new BootstrapError(`redis: the old instance on ${REDIS_PORT} did not shut down`);
    await startRedis();
    return url;
  }
  const fixes = [];
  if (state.appendonly !== 'yes') fixes.push(['CONFIG', 'SET', 'appendonly', 'yes']);
  if (state.policy !== 'noeviction') fixes.push(['CONFIG', 'SET', 'maxmemory-policy', 'noeviction']);
  if (fixes.length) await redisCommands('127.0.0.1', REDIS_PORT, fixes);
  log(
    `redis: reusing instance on ${REDIS_PORT} (dir ${state.dir})${fixes.length ? ' (turned on AOF/noeviction)' : ''}`,
  );
  return url;
}
