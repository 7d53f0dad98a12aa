// ClickHouse: the project-owned instance on 127.0.0.1:18123 (tcp 19000, data in .local/clickhouse),
// Debian's clickhouse-server package (18.16) started by us, not as the package's service; or
// CLICKHOUSE_URL as given.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { writeClickhouseConfig } from './clickhouse-config.mjs';
import { BootstrapError, log } from './log.mjs';
import { httpGet, tcpOpen, waitFor, waitPortClosed } from './net.mjs';
import {
  isRoot,
  pidIsProgram,
  pidListeningOn,
  readPidfile,
  sleep,
  tail,
  terminate,
  which,
} from './process.mjs';
import {
  CLICKHOUSE_DIR,
  CLICKHOUSE_HTTP_PORT,
  CLICKHOUSE_PIDFILE,
  DB_NAME,
  PROJECT_ROOT,
} from './settings.mjs';

export function clickhouseBinary() {
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

/** True when a /ping response is ClickHouse's `Ok.`. */
const answersOk = (r) => r.status === 200 && r.body.trim() === 'Ok.';

async function chPing(timeoutMs = 1000) {
  return answersOk(await httpGet(`${CH_BASE}/ping`, { timeoutMs }));
}

/** 'absent' | { dataPath } ; throws if the port is taken by something else. */
export async function probeClickhouse() {
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

function clickhouseOrigin(url) {
  const u = new URL(url);
  return `${u.protocol}//${u.username || u.password ? `${u.username}:${u.password}@` : ''}${u.host}`;
}

export async function waitClickhouseUrl(url) {
  const origin = clickhouseOrigin(url);
  await waitFor(`clickhouse (CLICKHOUSE_URL ${new URL(url).host})`, async () => {
    const r = await httpGet(`${origin}/ping`);
    return answersOk(r) || `${r.status} ${r.body.trim().slice(0, 80)}`;
  });
  log(`clickhouse: using CLICKHOUSE_URL (${new URL(url).host} reachable)`);
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

export async function ensureClickhouse(state) {
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

export function clickhouseDatabase() {
  const db = process.env.CLICKHOUSE_DATABASE || DB_NAME;
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(db))
    throw new BootstrapError(`clickhouse: CLICKHOUSE_DATABASE is not a plain identifier: ${db}`);
  return db;
}
