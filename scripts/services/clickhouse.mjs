// ClickHouse: the project-owned instance on 127.0.0.1:18123 (tcp 19000, data in .local/clickhouse),
// Debian's clickhouse-server package (18.16) started by us, not as the package's service; or
// CLICKHOUSE_URL as given.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ClickHouseLogLevel, createClient } from '@clickhouse/client';
import { writeClickhouseConfig } from './clickhouse-config.mjs';
import { BootstrapError, log } from './log.mjs';
import { tcpOpen, waitFor, waitPortClosed } from './net.mjs';
import { isRoot, pidIsProgram, readPidfile, sleep, tail, terminate } from './process.mjs';
import { clickhouseBinary } from './server-binaries.mjs';
import {
  CLICKHOUSE_DIR,
  CLICKHOUSE_HTTP_PORT,
  CLICKHOUSE_PIDFILE,
  DB_NAME,
  PROJECT_ROOT,
} from './settings.mjs';

export { clickhouseBinary };

const localUrl = (port = CLICKHOUSE_HTTP_PORT) => `http://127.0.0.1:${port}`;

/** One client for one probe or statement, closed after it. */
async function withClickhouse(url, fn, timeoutMs = 10_000) {
  const client = createClient({
    url,
    request_timeout: timeoutMs,
    compression: { request: false, response: false },
    // A failed ping is an answer here, not something to log.
    log: { level: ClickHouseLogLevel.OFF },
  });
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

async function chCommand(sql, port) {
  await withClickhouse(localUrl(port), (c) => c.command({ query: sql })).catch((e) => {
    throw new BootstrapError(`clickhouse: ${sql} failed: ${String(e.message).slice(0, 300)}`);
  });
}

/** True when the server answers its ping. */
async function chPing(url, timeoutMs = 1000) {
  return withClickhouse(url, async (c) => (await c.ping()).success, timeoutMs).catch(() => false);
}

/** 'absent' | { dataPath } ; throws if the port is taken by something else. */
export async function probeClickhouse(port = CLICKHOUSE_HTTP_PORT) {
  if (await chPing(localUrl(port))) {
    const rows = await withClickhouse(localUrl(port), async (c) => {
      const rs = await c.query({
        query: "SELECT data_path FROM system.databases WHERE name = 'system'",
        format: 'JSONEachRow',
      });
      return rs.json();
    }).catch(() => []);
    return { dataPath: rows[0]?.data_path ?? '' };
  }
  if (await tcpOpen('127.0.0.1', port, 500)) {
    // Something listens but does not answer the ping yet: maybe ClickHouse still starting. Give it a little time.
    for (let i = 0; i < 40; i++) {
      await sleep(250);
      if (await chPing(localUrl(port))) return probeClickhouse(port);
    }
    throw new BootstrapError(
      `clickhouse: port ${port} is taken by something that does not answer a ClickHouse ping; free it or set CLICKHOUSE_URL`,
    );
  }
  return 'absent';
}

/** The URL without its path (a database there would override the client's), credentials kept. */
function clickhouseOrigin(url) {
  const u = new URL(url);
  return `${u.protocol}//${u.username || u.password ? `${u.username}:${u.password}@` : ''}${u.host}`;
}

export async function waitClickhouseUrl(url) {
  const origin = clickhouseOrigin(url);
  await waitFor(`clickhouse (CLICKHOUSE_URL ${new URL(url).host})`, async () =>
    withClickhouse(origin, async (c) => {
      const { success, error } = await c.ping();
      return success || String(error?.message ?? 'no answer').slice(0, 80);
    }),
  );
  log(`clickhouse: using CLICKHOUSE_URL (${new URL(url).host} reachable)`);
}

/**
 * Stops a ClickHouse whose data folder (and so its pidfile) is gone: by its pidfile when that still names
 * our server, else by asking it to shut down. False when the port stays open.
 */
export async function stopOrphanClickhouse(port = CLICKHOUSE_HTTP_PORT, pidfile = CLICKHOUSE_PIDFILE) {
  const pid = readPidfile(pidfile);
  if (pid && pidIsProgram(pid, 'clickhouse')) {
    log(`clickhouse: stopping orphaned instance (pid ${pid})`);
    await terminate(pid, 30_000);
  } else {
    // The server signals its own process group; ours started it detached, in a group of its own.
    log('clickhouse: stopping orphaned instance (SYSTEM SHUTDOWN)');
    await withClickhouse(localUrl(port), (c) => c.command({ query: 'SYSTEM SHUTDOWN' })).catch(() => {});
  }
  return waitPortClosed(port, 30_000);
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
        return (await chPing(localUrl())) || 'no answer to a ping yet';
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

export async function ensureClickhouse(state) {
  if (state === 'absent') {
    await startClickhouse();
  } else if (!state.dataPath || !fs.existsSync(state.dataPath)) {
    log(
      `clickhouse: instance on ${CLICKHOUSE_HTTP_PORT} has lost its data folder (${state.dataPath || 'unknown'})`,
    );
    if (!(await stopOrphanClickhouse()))
      throw new BootstrapError(`clickhouse: the old instance on ${CLICKHOUSE_HTTP_PORT} did not stop`);
    await startClickhouse();
  } else {
    log(
      `clickhouse: reusing instance on ${CLICKHOUSE_HTTP_PORT} (data ${path.dirname(path.dirname(path.dirname(state.dataPath)))})`,
    );
  }
  await chCommand(`CREATE DATABASE IF NOT EXISTS ${clickhouseDatabase()}`);
  // The base URL, not `…/ota`: @clickhouse/client 1.x does accept a database as the URL path, but then
  // the path overrides the client's `database` option, and the app (and its tests, which use one
  // database per test file) select the database through CLICKHOUSE_DATABASE.
  return localUrl();
}

export function clickhouseDatabase() {
  const db = process.env.CLICKHOUSE_DATABASE || DB_NAME;
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(db))
    throw new BootstrapError(`clickhouse: CLICKHOUSE_DATABASE is not a plain identifier: ${db}`);
  return db;
}
