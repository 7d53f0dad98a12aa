#!/usr/bin/env node
// Bootstrap for a fresh machine that has only Node.js and npm (Debian 12, run as root).
//
//   node scripts/bootstrap.mjs deps       install node_modules when missing or when package-lock.json changed
//   node scripts/bootstrap.mjs services   make sure Postgres, Redis and ClickHouse run; print KEY=value lines
//                                          (DATABASE_URL, REDIS_URL, CLICKHOUSE_URL, CLICKHOUSE_DATABASE)
//   node scripts/bootstrap.mjs migrate    deps + services + build, then dist/src/migrate.js (`npm run migrate`)
//
// Also importable: ensureDependencies(), ensureServices().
//
// Only Node's standard library is used here: this runs before node_modules exists.
// Every step logs one line to stderr; stdout carries only the env lines of `services`.
//
// Services (unless DATABASE_URL / REDIS_URL / CLICKHOUSE_URL are set, which are used as given):
//   Postgres   Debian's cluster (`ls /etc/postgresql`, cluster main) on 5432; role and database `ota`.
//   Redis      project-owned instance on 127.0.0.1:6390, AOF on, noeviction, data in .local/redis.
//   ClickHouse project-owned instance on 127.0.0.1:18123 (tcp 19000), data in .local/clickhouse;
//              Debian's clickhouse-server package (18.16), not the package's own service.

import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const LOCAL_DIR = path.join(PROJECT_ROOT, '.local');
export const REDIS_PORT = 6390;
export const CLICKHOUSE_HTTP_PORT = 18123;
export const CLICKHOUSE_TCP_PORT = 19000;
export const CLICKHOUSE_INTERSERVER_PORT = 19009;
export const POSTGRES_PORT = 5432;
export const REDIS_DIR = path.join(LOCAL_DIR, 'redis');
export const REDIS_PIDFILE = path.join(REDIS_DIR, 'redis.pid');
export const CLICKHOUSE_DIR = path.join(LOCAL_DIR, 'clickhouse');
export const CLICKHOUSE_PIDFILE = path.join(CLICKHOUSE_DIR, 'clickhouse.pid');

const LOCK_HASH_FILE = path.join(PROJECT_ROOT, 'node_modules', '.ota-lock-hash');
const REACHABLE_TIMEOUT_MS = 60_000;
const DB_NAME = 'ota';
const PG_USER = 'ota';
const PG_PASSWORD = 'ota';

export class BootstrapError extends Error {
  constructor(message) {
    super(message);
    this.name = 'BootstrapError';
  }
}

export function log(line) {
  process.stderr.write(`[bootstrap] ${line}\n`);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------
// small process helpers

function run(cmd, args, { input, env, timeoutMs = 120_000, cwd } = {}) {
  const r = spawnSync(cmd, args, {
    input,
    env: env ? { ...process.env, ...env } : process.env,
    cwd,
    encoding: 'utf8',
    timeout: timeoutMs,
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  return {
    ok: r.status === 0 && !r.error,
    status: r.status,
    stdout: r.stdout ?? '',
    stderr: (r.stderr ?? '') + (r.error ? String(r.error.message) : ''),
  };
}

/** Runs a command with its output shown on our stderr (stdout stays clean for env lines). */
function runVisible(cmd, args, { env, cwd } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd,
      env: env ? { ...process.env, ...env } : process.env,
      stdio: ['ignore', process.stderr.fd ?? 2, process.stderr.fd ?? 2],
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code === 0 ? 0 : (code ?? signal) }));
  });
}

function which(name, extraDirs = []) {
  const dirs = [
    ...(process.env.PATH ?? '').split(':'),
    '/usr/local/sbin',
    '/usr/local/bin',
    '/usr/sbin',
    '/usr/bin',
    '/sbin',
    '/bin',
    ...extraDirs,
  ];
  for (const dir of dirs) {
    if (!dir) continue;
    const p = path.join(dir, name);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      if (fs.statSync(p).isFile()) return p;
    } catch {}
  }
  return null;
}

function tail(file, lines = 15) {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

// ---------------------------------------------------------------------------
// dependencies

function lockHash() {
  const lock = path.join(PROJECT_ROOT, 'package-lock.json');
  if (!fs.existsSync(lock)) return null;
  return createHash('sha256').update(fs.readFileSync(lock)).digest('hex');
}

/**
 * Runs npm with its stdout shown on our stderr and its stderr captured (returned, and printed unless
 * the caller decides otherwise). Synchronous, so callers need not await ensureDependencies().
 */
function npmSync(args) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, args, {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', process.stderr.fd ?? 2, 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) throw new BootstrapError(`deps: cannot run npm: ${r.error.message}`);
  return { code: r.status ?? r.signal, stderr: r.stderr ?? '' };
}

/**
 * `npm ci` when node_modules is missing or package-lock.json changed since the last install
 * (sha256 of the lock kept in node_modules/.ota-lock-hash). A fast no-op otherwise. Synchronous.
 */
export function ensureDependencies() {
  const hash = lockHash();
  const nodeModules = path.join(PROJECT_ROOT, 'node_modules');
  let stored = null;
  try {
    stored = fs.readFileSync(LOCK_HASH_FILE, 'utf8').trim();
  } catch {}
  if (hash && stored === hash && fs.existsSync(nodeModules)) {
    log('deps: node_modules up to date');
    return false;
  }
  const why = !fs.existsSync(nodeModules)
    ? 'node_modules missing'
    : stored
      ? 'package-lock.json changed'
      : 'no install record';
  const flags = ['--no-audit', '--no-fund'];
  const started = Date.now();
  const install = () => {
    const inst = npmSync(['install', ...flags]);
    process.stderr.write(inst.stderr);
    if (inst.code !== 0) throw new BootstrapError(`deps: npm install failed (exit ${inst.code})`);
  };
  if (hash) {
    log(`deps: ${why}; running npm ci`);
    const ci = npmSync(['ci', ...flags]);
    if (ci.code === 0) {
      process.stderr.write(ci.stderr);
    } else if (/package\.json and package-lock\.json .*in sync/s.test(ci.stderr)) {
      // npm 11 rejects a lock file that lacks entries for other platforms' optional packages (a lock
      // written against a registry mirror that serves only this platform's packages). `npm install`
      // accepts that lock and installs exactly the locked versions without rewriting it.
      const missing = ci.stderr.split('\n').filter((l) => /Missing: .* from lock file/.test(l)).length;
      log(
        `deps: npm ci refused package-lock.json (${missing} optional platform packages missing from it); falling back to npm install`,
      );
      install();
      if (lockHash() !== hash) log('deps: note: npm install rewrote package-lock.json');
    } else {
      process.stderr.write(ci.stderr);
      throw new BootstrapError(`deps: npm ci failed (exit ${ci.code})`);
    }
  } else {
    log(`deps: ${why} and no package-lock.json; running npm install`);
    install();
  }
  const after = lockHash();
  if (after) fs.writeFileSync(LOCK_HASH_FILE, `${after}\n`);
  log(`deps: installed in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  return true;
}

// ---------------------------------------------------------------------------
// apt

let aptUpdated = false;

async function aptInstall(packages) {
  if (packages.length === 0) return;
  if (!isRoot()) {
    throw new BootstrapError(
      `apt: need root to install ${packages.join(', ')}; install them yourself or set DATABASE_URL / REDIS_URL / CLICKHOUSE_URL`,
    );
  }
  if (!which('apt-get'))
    throw new BootstrapError(`apt: apt-get not found; install ${packages.join(', ')} yourself`);
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  const lockOpt = ['-o', 'DPkg::Lock::Timeout=300'];
  if (!aptUpdated) {
    log('apt: apt-get update');
    const { code } = await runVisible('apt-get', [...lockOpt, 'update', '-q'], { env });
    if (code !== 0) throw new BootstrapError(`apt: apt-get update failed (exit ${code})`);
    aptUpdated = true;
  }
  log(`apt: installing ${packages.join(' ')}`);
  const { code } = await runVisible(
    'apt-get',
    [...lockOpt, 'install', '-y', '-q', '--no-install-recommends', ...packages],
    { env },
  );
  if (code !== 0)
    throw new BootstrapError(`apt: apt-get install ${packages.join(' ')} failed (exit ${code})`);
}

// ---------------------------------------------------------------------------
// network probes

function tcpOpen(host, port, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    const done = (v) => {
      s.destroy();
      resolve(v);
    };
    s.setTimeout(timeoutMs, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

function httpGet(url, { timeoutMs = 2000, method = 'GET', body, headers = {} } = {}) {
  return new Promise((resolve) => {
    const u = new URL(url);
    const lib = u.protocol === 'https:' ? https : http;
    const auth =
      u.username || u.password
        ? {
            authorization: `Basic ${Buffer.from(`${decodeURIComponent(u.username || 'default')}:${decodeURIComponent(u.password)}`).toString('base64')}`,
          }
        : {};
    const req = lib.request(
      {
        method,
        hostname: u.hostname,
        port: u.port || (u.protocol === 'https:' ? 443 : 80),
        path: `${u.pathname}${u.search}`,
        headers: { ...auth, ...headers },
        timeout: timeoutMs,
      },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (data += c));
        res.on('end', () => resolve({ status: res.statusCode, body: data }));
        res.on('error', (e) => resolve({ status: 0, body: String(e.message) }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve({ status: 0, body: String(e.message), error: e }));
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** Minimal RESP client: sends the commands in order, resolves with their replies (errors as {error}). */
function redisCommands(host, port, commands, timeoutMs = 2000) {
  return new Promise((resolve, reject) => {
    const sock = net.connect({ host, port });
    let buf = Buffer.alloc(0);
    const replies = [];
    let finished = false;
    const finish = (err, v) => {
      if (finished) return;
      finished = true;
      sock.destroy();
      err ? reject(err) : resolve(v);
    };
    sock.setTimeout(timeoutMs, () => finish(new Error('timeout')));
    sock.once('error', (e) => finish(e));
    sock.once('close', () => finish(new Error(`connection closed after ${replies.length} replies`)));
    sock.once('connect', () => {
      const enc = (args) =>
        `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(String(a))}\r\n${a}\r\n`).join('')}`;
      sock.write(commands.map(enc).join(''));
    });
    const parse = (b, i) => {
      // returns [value, nextIndex] or null when incomplete
      const eol = b.indexOf('\r\n', i);
      if (eol < 0) return null;
      const type = String.fromCharCode(b[i]);
      const line = b.toString('utf8', i + 1, eol);
      const next = eol + 2;
      if (type === '+') return [line, next];
      if (type === '-') return [{ error: line }, next];
      if (type === ':') return [Number(line), next];
      if (type === '$') {
        const n = Number(line);
        if (n < 0) return [null, next];
        if (b.length < next + n + 2) return null;
        return [b.toString('utf8', next, next + n), next + n + 2];
      }
      if (type === '*') {
        const n = Number(line);
        if (n < 0) return [null, next];
        const arr = [];
        let j = next;
        for (let k = 0; k < n; k++) {
          const r = parse(b, j);
          if (!r) return null;
          arr.push(r[0]);
          j = r[1];
        }
        return [arr, j];
      }
      throw new Error(
        `not a Redis reply (${JSON.stringify(b.toString('utf8', i, Math.min(b.length, i + 40)))})`,
      );
    };
    sock.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      try {
        let i = 0;
        while (replies.length < commands.length) {
          const r = parse(buf, i);
          if (!r) break;
          replies.push(r[0]);
          i = r[1];
        }
        buf = buf.subarray(i);
        if (replies.length === commands.length) finish(null, replies);
      } catch (e) {
        finish(e);
      }
    });
  });
}

async function waitFor(what, probe, timeoutMs = REACHABLE_TIMEOUT_MS, interval = 250) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      last = await probe();
      if (last === true) return;
    } catch (e) {
      last = e.message;
    }
    if (Date.now() > deadline) {
      throw new BootstrapError(
        `${what}: not reachable after ${Math.round(timeoutMs / 1000)}s${typeof last === 'string' && last ? ` (${last})` : ''}`,
      );
    }
    await sleep(interval);
  }
}

// ---------------------------------------------------------------------------
// /proc helpers (find the process that listens on a port; check what a pid is)

function procCmdline(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return null;
  }
}

function procExe(pid) {
  try {
    return fs.readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return '';
  }
}

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** True when pid is a live process whose executable or command line names `program`. */
export function pidIsProgram(pid, program) {
  if (!Number.isInteger(pid) || pid <= 1 || !pidAlive(pid)) return false;
  const cmd = procCmdline(pid) ?? [];
  const exe = procExe(pid);
  return path.basename(exe).startsWith(program) || (cmd[0] ?? '').includes(program);
}

export function readPidfile(file) {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 1 ? pid : null;
  } catch {
    return null;
  }
}

function listeningInodes(port) {
  const inodes = new Set();
  for (const f of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = fs.readFileSync(f, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10) continue;
      const localPort = Number.parseInt(cols[1].split(':')[1], 16);
      if (localPort === port && cols[3] === '0A') inodes.add(cols[9]);
    }
  }
  return inodes;
}

/** Pid of the process listening on a TCP port, found through /proc (null if not found). */
export function pidListeningOn(port) {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return null;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let fds;
    try {
      fds = fs.readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${entry}/fd/${fd}`));
        if (m && inodes.has(m[1])) return Number(entry);
      } catch {}
    }
  }
  return null;
}

async function waitExit(pid, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!pidAlive(pid)) return true;
    await sleep(100);
  }
  return !pidAlive(pid);
}

/** SIGTERM, then SIGKILL after graceMs. */
export async function terminate(pid, graceMs = 20_000) {
  try {
    process.kill(pid, 'SIGTERM');
  } catch (e) {
    if (e.code === 'ESRCH') return true;
    throw e;
  }
  if (await waitExit(pid, graceMs)) return true;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {}
  return waitExit(pid, 5000);
}

async function waitPortClosed(port, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!(await tcpOpen('127.0.0.1', port, 500))) return true;
    await sleep(100);
  }
  return false;
}

// ---------------------------------------------------------------------------
// lock: one bootstrap per checkout at a time (npm start and npm test started together)

async function withLock(fn) {
  fs.mkdirSync(LOCAL_DIR, { recursive: true });
  const lockDir = path.join(LOCAL_DIR, 'bootstrap.lock');
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      const holder = readPidfile(path.join(lockDir, 'pid'));
      let age = 0;
      try {
        age = Date.now() - fs.statSync(lockDir).mtimeMs;
      } catch {}
      if ((holder && !pidAlive(holder)) || (!holder && age > 5000)) {
        fs.rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw new BootstrapError(`lock: another bootstrap (pid ${holder}) holds ${lockDir}`);
      await sleep(200);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------
// external URLs: wait until reachable

async function waitPostgresUrl(url) {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1';
  const port = Number(u.port || 5432);
  await waitFor(`postgres (DATABASE_URL ${host}:${port})`, () => tcpOpen(host, port));
  log(`postgres: using DATABASE_URL (${host}:${port} reachable)`);
}

async function waitRedisUrl(url) {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1';
  const port = Number(u.port || 6379);
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

function clickhouseOrigin(url) {
  const u = new URL(url);
  return `${u.protocol}//${u.username || u.password ? `${u.username}:${u.password}@` : ''}${u.host}`;
}

async function waitClickhouseUrl(url) {
  const origin = clickhouseOrigin(url);
  await waitFor(`clickhouse (CLICKHOUSE_URL ${new URL(url).host})`, async () => {
    const r = await httpGet(`${origin}/ping`);
    return (r.status === 200 && r.body.trim() === 'Ok.') || `${r.status} ${r.body.trim().slice(0, 80)}`;
  });
  log(`clickhouse: using CLICKHOUSE_URL (${new URL(url).host} reachable)`);
}

// ---------------------------------------------------------------------------
// Postgres: Debian's cluster

function pgInstalled() {
  if (!which('pg_ctlcluster') || !which('psql')) return false;
  try {
    return fs
      .readdirSync('/usr/lib/postgresql')
      .some((v) => fs.existsSync(`/usr/lib/postgresql/${v}/bin/postgres`));
  } catch {
    return false;
  }
}

function pgVersion() {
  const byNum = (a, b) => Number.parseFloat(b) - Number.parseFloat(a);
  let versions = [];
  try {
    versions = fs
      .readdirSync('/etc/postgresql')
      .filter((v) => fs.existsSync(`/etc/postgresql/${v}/main`))
      .sort(byNum);
  } catch {}
  if (versions.length > 0) return { version: versions[0], exists: true };
  const installed = fs
    .readdirSync('/usr/lib/postgresql')
    .filter((v) => fs.existsSync(`/usr/lib/postgresql/${v}/bin/postgres`))
    .sort(byNum);
  return { version: installed[0], exists: false };
}

function pgUrl() {
  return `postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${POSTGRES_PORT}/${DB_NAME}`;
}

function pgCheckOtaLogin() {
  const r = run(
    'psql',
    [
      '-X',
      '-w',
      '-tA',
      pgUrl(),
      '-c',
      'SELECT rolsuper AND rolcreatedb FROM pg_roles WHERE rolname = current_user',
    ],
    {
      env: { PGCONNECT_TIMEOUT: '5' },
      timeoutMs: 15_000,
    },
  );
  return { ok: r.ok && r.stdout.trim() === 't', detail: (r.stderr || r.stdout).trim() };
}

async function ensurePostgres() {
  if (!pgInstalled()) throw new BootstrapError('postgres: postgresql binaries not found after install');

  if (!(await tcpOpen('127.0.0.1', POSTGRES_PORT))) {
    if (!isRoot())
      throw new BootstrapError(
        `postgres: nothing on 127.0.0.1:${POSTGRES_PORT} and not root to start the cluster; set DATABASE_URL`,
      );
    const { version, exists } = pgVersion();
    if (!exists) {
      log(`postgres: creating cluster ${version}/main`);
      const r = run('pg_createcluster', [version, 'main'], { timeoutMs: 120_000 });
      if (!r.ok)
        throw new BootstrapError(`postgres: pg_createcluster ${version} main failed: ${r.stderr.trim()}`);
    }
    log(`postgres: starting cluster ${version}/main`);
    const r = run('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], {
      timeoutMs: 120_000,
    });
    if (!r.ok && !/already running/i.test(r.stderr)) {
      throw new BootstrapError(`postgres: pg_ctlcluster ${version} main start failed: ${r.stderr.trim()}`);
    }
    await waitFor(
      `postgres: cluster ${version}/main on 127.0.0.1:${POSTGRES_PORT}`,
      () => tcpOpen('127.0.0.1', POSTGRES_PORT),
      60_000,
    );
    log(`postgres: cluster ${version}/main started on ${POSTGRES_PORT}`);
  }

  // Fast path: role and database already exist and the password works over TCP.
  if (pgCheckOtaLogin().ok) {
    log(`postgres: ready on ${POSTGRES_PORT} (role and database ${DB_NAME})`);
    return pgUrl();
  }

  if (!isRoot())
    throw new BootstrapError(
      `postgres: cannot log in as ${PG_USER} and not root to create the role; set DATABASE_URL`,
    );
  const sql = `
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${PG_USER}') THEN
    CREATE ROLE ${PG_USER} LOGIN SUPERUSER CREATEDB PASSWORD '${PG_PASSWORD}';
  ELSE
    ALTER ROLE ${PG_USER} LOGIN SUPERUSER CREATEDB PASSWORD '${PG_PASSWORD}';
  END IF;
END
$$;
SELECT 'CREATE DATABASE ${DB_NAME} OWNER ${PG_USER}' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '${DB_NAME}')
\\gexec
`;
  const r = run(
    'runuser',
    [
      '-u',
      'postgres',
      '--',
      'psql',
      '-X',
      '-q',
      '-v',
      'ON_ERROR_STOP=1',
      '-p',
      String(POSTGRES_PORT),
      '-d',
      'postgres',
      '-f',
      '-',
    ],
    {
      input: sql,
      cwd: '/',
      timeoutMs: 60_000,
    },
  );
  if (!r.ok)
    throw new BootstrapError(
      `postgres: creating role/database ${DB_NAME} as postgres failed: ${r.stderr.trim()}`,
    );
  log(`postgres: role ${PG_USER} and database ${DB_NAME} ensured`);

  const check = pgCheckOtaLogin();
  if (!check.ok) throw new BootstrapError(`postgres: cannot log in with ${pgUrl()}: ${check.detail}`);
  log(`postgres: ready on ${POSTGRES_PORT}`);
  return pgUrl();
}

// ---------------------------------------------------------------------------
// Redis: project-owned instance on 6390

/** 'absent' | { dir, appendonly, policy } | throws when the port is taken by something unusable. */
async function probeRedis() {
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

async function ensureRedis(state) {
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

// ---------------------------------------------------------------------------
// ClickHouse: project-owned instance on 18123

function clickhouseBinary() {
  const server = which('clickhouse-server');
  if (server) return { cmd: server, pre: [] };
  const multi = which('clickhouse'); // newer packaging: one binary, `clickhouse server`
  if (multi) return { cmd: multi, pre: ['server'] };
  return null;
}

const CH_BASE = `http://127.0.0.1:${CLICKHOUSE_HTTP_PORT}`;

async function chQuery(sql, timeoutMs = 10_000) {
  const r = await httpGet(`${CH_BASE}/`, { method: 'POST', body: sql, timeoutMs });
  if (r.status !== 200)
    throw new BootstrapError(`clickhouse: query failed (${r.status}): ${r.body.trim().slice(0, 300)}`);
  return r.body;
}

async function chPing(timeoutMs = 1000) {
  const r = await httpGet(`${CH_BASE}/ping`, { timeoutMs });
  return r.status === 200 && r.body.trim() === 'Ok.';
}

/** 'absent' | { dataPath } ; throws if the port is taken by something else. */
async function probeClickhouse() {
  if (await chPing()) {
    const body = await chQuery(
      "SELECT data_path FROM system.databases WHERE name = 'system' FORMAT TabSeparatedRaw",
    ).catch(() => '');
    return { dataPath: body.trim() };
  }
  if (await tcpOpen('127.0.0.1', CLICKHOUSE_HTTP_PORT, 500)) {
    // Something listens but /ping is not Ok. yet: maybe ClickHouse still starting. Give it a little time.
    for (let i = 0; i < 40; i++) {
      await sleep(250);
      if (await chPing()) return probeClickhouse();
    }
    throw new BootstrapError(
      `clickhouse: port ${CLICKHOUSE_HTTP_PORT} is taken by something that does not answer /ping with Ok.; free it or set CLICKHOUSE_URL`,
    );
  }
  return 'absent';
}

function xmlEscape(s) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function writeIfChanged(file, content) {
  try {
    if (fs.readFileSync(file, 'utf8') === content) return;
  } catch {}
  fs.writeFileSync(file, content);
}

function writeClickhouseConfig() {
  const dir = (...p) => xmlEscape(`${path.join(CLICKHOUSE_DIR, ...p)}/`);
  for (const d of ['data', 'tmp', 'user_files', 'format_schemas', 'log'])
    fs.mkdirSync(path.join(CLICKHOUSE_DIR, d), { recursive: true });
  const config = `<?xml version="1.0"?>
<!-- Generated by scripts/bootstrap.mjs for this checkout; rewritten on every start. -->
<yandex>
    <logger>
        <level>warning</level>
        <log>${xmlEscape(path.join(CLICKHOUSE_DIR, 'log', 'clickhouse-server.log'))}</log>
        <errorlog>${xmlEscape(path.join(CLICKHOUSE_DIR, 'log', 'clickhouse-server.err.log'))}</errorlog>
        <size>50M</size>
        <count>3</count>
    </logger>
    <http_port>${CLICKHOUSE_HTTP_PORT}</http_port>
    <tcp_port>${CLICKHOUSE_TCP_PORT}</tcp_port>
    <interserver_http_port>${CLICKHOUSE_INTERSERVER_PORT}</interserver_http_port>
    <interserver_http_host>127.0.0.1</interserver_http_host>
    <listen_host>127.0.0.1</listen_host>
    <max_connections>1024</max_connections>
    <keep_alive_timeout>10</keep_alive_timeout>
    <max_concurrent_queries>100</max_concurrent_queries>
    <uncompressed_cache_size>268435456</uncompressed_cache_size>
    <mark_cache_size>268435456</mark_cache_size>
    <path>${dir('data')}</path>
    <tmp_path>${dir('tmp')}</tmp_path>
    <user_files_path>${dir('user_files')}</user_files_path>
    <format_schema_path>${dir('format_schemas')}</format_schema_path>
    <users_config>users.xml</users_config>
    <default_profile>default</default_profile>
    <default_database>default</default_database>
    <timezone>UTC</timezone>
    <mlock_executable>false</mlock_executable>
</yandex>
`;
  const users = `<?xml version="1.0"?>
<!-- Generated by scripts/bootstrap.mjs: user default, no password, localhost only. -->
<yandex>
    <profiles>
        <default>
            <max_memory_usage>4000000000</max_memory_usage>
            <load_balancing>random</load_balancing>
        </default>
    </profiles>
    <users>
        <default>
            <password></password>
            <networks>
                <ip>127.0.0.1</ip>
                <ip>::1</ip>
            </networks>
            <profile>default</profile>
            <quota>default</quota>
        </default>
    </users>
    <quotas>
        <default>
            <interval>
                <duration>3600</duration>
                <queries>0</queries>
                <errors>0</errors>
                <result_rows>0</result_rows>
                <read_rows>0</read_rows>
                <execution_time>0</execution_time>
            </interval>
        </default>
    </quotas>
</yandex>
`;
  const configFile = path.join(CLICKHOUSE_DIR, 'config.xml');
  writeIfChanged(configFile, config);
  writeIfChanged(path.join(CLICKHOUSE_DIR, 'users.xml'), users);
  return configFile;
}

async function startClickhouse() {
  const bin = clickhouseBinary();
  if (!bin) throw new BootstrapError('clickhouse: clickhouse-server not found');
  fs.mkdirSync(CLICKHOUSE_DIR, { recursive: true });
  const configFile = writeClickhouseConfig();
  const stale = readPidfile(CLICKHOUSE_PIDFILE);
  if (stale && !pidIsProgram(stale, 'clickhouse')) fs.rmSync(CLICKHOUSE_PIDFILE, { force: true });
  // Not --daemon: in daemon mode 18.16 exits silently on any start-up error. A detached child with
  // its output in a file keeps the error visible, and holds no pipe of ours (CI waits on those).
  const outFile = path.join(CLICKHOUSE_DIR, 'log', 'stdout.log');
  const out = fs.openSync(outFile, 'w');
  const child = spawn(
    bin.cmd,
    [...bin.pre, `--config-file=${configFile}`, `--pid-file=${CLICKHOUSE_PIDFILE}`],
    {
      cwd: CLICKHOUSE_DIR,
      detached: true,
      stdio: ['ignore', out, out],
    },
  );
  fs.closeSync(out);
  let exited = null;
  child.on('exit', (code, signal) => (exited = code ?? signal));
  child.on('error', (e) => (exited = e.message));
  child.unref();
  const errLog = path.join(CLICKHOUSE_DIR, 'log', 'clickhouse-server.err.log');
  try {
    await waitFor(
      `clickhouse on ${CLICKHOUSE_HTTP_PORT}`,
      async () => {
        if (exited !== null)
          throw new BootstrapError(`clickhouse: clickhouse-server exited during start-up (${exited})`);
        return (await chPing()) || 'no Ok. from /ping yet';
      },
      60_000,
    );
  } catch (e) {
    throw new BootstrapError(
      `${e.message}\n--- ${outFile}\n${tail(outFile)}\n--- ${errLog}\n${tail(errLog)}`,
    );
  }
  if (!fs.existsSync(CLICKHOUSE_PIDFILE)) fs.writeFileSync(CLICKHOUSE_PIDFILE, `${child.pid}\n`);
  const user = isRoot() ? 'root' : (process.env.USER ?? `uid ${process.getuid?.()}`);
  log(
    `clickhouse: started on ${CLICKHOUSE_HTTP_PORT} (pid ${readPidfile(CLICKHOUSE_PIDFILE) ?? child.pid}, as ${user}, data ${path.relative(PROJECT_ROOT, CLICKHOUSE_DIR)})`,
  );
}

async function stopOrphanClickhouse() {
  // The data folder is gone, so its pidfile is too: find the listener through /proc.
  let pid = readPidfile(CLICKHOUSE_PIDFILE);
  if (!(pid && pidIsProgram(pid, 'clickhouse') && pidListeningOn(CLICKHOUSE_HTTP_PORT) === pid))
    pid = pidListeningOn(CLICKHOUSE_HTTP_PORT);
  if (pid && pidIsProgram(pid, 'clickhouse')) {
    log(`clickhouse: stopping orphaned instance (pid ${pid})`);
    await terminate(pid, 30_000);
  } else {
    log('clickhouse: stopping orphaned instance (SYSTEM SHUTDOWN; pid not visible)');
    await chQuery('SYSTEM SHUTDOWN').catch(() => {});
  }
  if (!(await waitPortClosed(CLICKHOUSE_HTTP_PORT, 30_000)))
    throw new BootstrapError(`clickhouse: the old instance on ${CLICKHOUSE_HTTP_PORT} did not stop`);
}

async function ensureClickhouse(state) {
  if (state === 'absent') {
    await startClickhouse();
  } else if (!state.dataPath || !fs.existsSync(state.dataPath)) {
    log(
      `clickhouse: instance on ${CLICKHOUSE_HTTP_PORT} has lost its data folder (${state.dataPath || 'unknown'})`,
    );
    await stopOrphanClickhouse();
    await startClickhouse();
  } else {
    log(
      `clickhouse: reusing instance on ${CLICKHOUSE_HTTP_PORT} (data ${path.dirname(path.dirname(path.dirname(state.dataPath)))})`,
    );
  }
  await chQuery(`CREATE DATABASE IF NOT EXISTS ${clickhouseDatabase()}`);
  // The base URL, not `${CH_BASE}/ota`: @clickhouse/client 1.x does accept a database as the URL path,
  // but then the path overrides the client's `database` option, and the app (and its tests, which
  // use one database per test file) select the database through CLICKHOUSE_DATABASE.
  return CH_BASE;
}

function clickhouseDatabase() {
  const db = process.env.CLICKHOUSE_DATABASE || DB_NAME;
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(db))
    throw new BootstrapError(`clickhouse: CLICKHOUSE_DATABASE is not a plain identifier: ${db}`);
  return db;
}

// ---------------------------------------------------------------------------

/**
 * Makes sure Postgres, Redis and ClickHouse are reachable and returns
 * { DATABASE_URL, REDIS_URL, CLICKHOUSE_URL, CLICKHOUSE_DATABASE }.
 * URLs already in process.env are used as given (after waiting until reachable).
 */
export async function ensureServices() {
  const started = Date.now();
  const given = {
    DATABASE_URL: process.env.DATABASE_URL || null,
    REDIS_URL: process.env.REDIS_URL || null,
    CLICKHOUSE_URL: process.env.CLICKHOUSE_URL || null,
  };
  const external = [];
  if (given.DATABASE_URL) external.push(waitPostgresUrl(given.DATABASE_URL));
  if (given.REDIS_URL) external.push(waitRedisUrl(given.REDIS_URL));
  if (given.CLICKHOUSE_URL) external.push(waitClickhouseUrl(given.CLICKHOUSE_URL));

  const local = async () => {
    if (given.DATABASE_URL && given.REDIS_URL && given.CLICKHOUSE_URL) return {};
    return withLock(async () => {
      // Probe first; install only what is missing, in one apt-get run.
      const [redisState, chState] = await Promise.all([
        given.REDIS_URL ? null : probeRedis(),
        given.CLICKHOUSE_URL ? null : probeClickhouse(),
      ]);
      const packages = [];
      if (!given.DATABASE_URL && !pgInstalled()) packages.push('postgresql');
      const redisNeedsStart =
        !given.REDIS_URL &&
        (redisState === 'absent' ||
          (redisState && !redisState.loading && (!redisState.dir || !fs.existsSync(redisState.dir))));
      if (redisNeedsStart && !which('redis-server')) packages.push('redis-server');
      const chNeedsStart =
        !given.CLICKHOUSE_URL &&
        (chState === 'absent' || !chState.dataPath || !fs.existsSync(chState.dataPath));
      if (chNeedsStart && !clickhouseBinary()) packages.push('clickhouse-server');
      await aptInstall(packages);

      const [DATABASE_URL, REDIS_URL, CLICKHOUSE_URL] = await allOrThrow([
        given.DATABASE_URL ? null : ensurePostgres(),
        given.REDIS_URL ? null : ensureRedis(redisState),
        given.CLICKHOUSE_URL ? null : ensureClickhouse(chState),
      ]);
      return { DATABASE_URL, REDIS_URL, CLICKHOUSE_URL };
    });
  };

  const [localUrls] = await allOrThrow([local(), ...external]);
  const env = {
    DATABASE_URL: given.DATABASE_URL ?? localUrls.DATABASE_URL,
    REDIS_URL: given.REDIS_URL ?? localUrls.REDIS_URL,
    CLICKHOUSE_URL: given.CLICKHOUSE_URL ?? localUrls.CLICKHOUSE_URL,
    CLICKHOUSE_DATABASE: clickhouseDatabase(),
  };
  log(`services: ready in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  return env;
}

/** Like Promise.all, but waits for every promise and then fails naming every failure. */
async function allOrThrow(promises) {
  const results = await Promise.allSettled(promises);
  const failed = results.filter((r) => r.status === 'rejected').map((r) => r.reason);
  if (failed.length === 1) throw failed[0];
  if (failed.length > 1) throw new BootstrapError(failed.map((e) => e?.message ?? String(e)).join('\n'));
  return results.map((r) => r.value);
}

// ---------------------------------------------------------------------------
// CLI

const USAGE = `usage: node scripts/bootstrap.mjs <command>
  deps       install node_modules when missing or package-lock.json changed
  services   ensure Postgres, Redis, ClickHouse; print DATABASE_URL=, REDIS_URL=, CLICKHOUSE_URL=,
             CLICKHOUSE_DATABASE= (KEY=value lines on stdout)
  migrate    deps + services + build, then apply the Postgres and ClickHouse migrations`;

async function main(argv) {
  const cmd = argv[0];
  if (cmd === 'deps') {
    ensureDependencies();
  } else if (cmd === 'services') {
    const env = await ensureServices();
    for (const [k, v] of Object.entries(env)) process.stdout.write(`${k}=${v}\n`);
  } else if (cmd === 'migrate') {
    // `npm run migrate`: the same set-up as `npm start`, then only the migration runner.
    ensureDependencies();
    const env = { ...process.env, ...(await ensureServices()) };
    const { localSecrets } = await import('./local-secrets.mjs');
    const { buildIfStale } = await import('./build.mjs');
    Object.assign(env, localSecrets(PROJECT_ROOT));
    buildIfStale(PROJECT_ROOT);
    const r = spawnSync(process.execPath, ['dist/src/migrate.js'], {
      cwd: PROJECT_ROOT,
      env,
      stdio: 'inherit',
    });
    if (r.status !== 0)
      throw new BootstrapError(`migrate: dist/src/migrate.js failed (exit ${r.status ?? r.signal})`);
  } else {
    process.stderr.write(`${USAGE}\n`);
    process.exitCode = cmd === undefined || cmd === '-h' || cmd === '--help' ? 0 : 2;
  }
}

const invokedDirectly = (() => {
  try {
    return (
      process.argv[1] && fs.realpathSync(process.argv[1]) === fs.realpathSync(fileURLToPath(import.meta.url))
    );
  } catch {
    return false;
  }
})();

if (invokedDirectly) {
  main(process.argv.slice(2)).catch((e) => {
    log(`FAILED: ${e instanceof BootstrapError ? e.message : (e?.stack ?? e)}`);
    process.exitCode = 1;
  });
}
