// Child processes (run, runVisible, which), pids (what a pidfile's pid is, terminate), and the
// per-checkout bootstrap lock. Standard library only: it runs before node_modules exists.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BootstrapError } from './log.mjs';
import { LOCAL_DIR } from './settings.mjs';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function run(cmd, args, { input, env, timeoutMs = 120_000, cwd } = {}) {
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
export function runVisible(cmd, args, { env, cwd } = {}) {
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

export function which(name, extraDirs = []) {
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

export function tail(file, lines = 15) {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

export function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** True when the module at moduleUrl is the script node was started with (not an import). */
export function isEntryPoint(moduleUrl) {
  try {
    return (
      Boolean(process.argv[1]) &&
      fs.realpathSync(process.argv[1]) === fs.realpathSync(fileURLToPath(moduleUrl))
    );
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------
// pids: is the pid in a pidfile still the program that wrote it

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

// ---------------------------------------------------------------------------
// lock: one bootstrap per checkout at a time (npm start and npm test started together)

export async function withLock(fn) {
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
