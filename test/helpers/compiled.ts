import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdir, readdir, rmdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { WORKER_NODE_FLAGS } from '../../scripts/node-flags.mjs';
import { projectRoot } from '../../src/platform/paths.js';

const run = promisify(execFile);
let built: Promise<void> | undefined;
const DIST_READY = 'OTA_TEST_DIST_READY';

/** Global set-up: compile once before any test file starts, and tell the files (forked later) so. */
export async function buildForRun(): Promise<void> {
  await ensureBuilt();
  process.env[DIST_READY] = '1';
}

/**
 * Compiles the project into dist/ (the same `tsc -b sdk` and `tsc -p tsconfig.build.json` as `npm run build`) unless dist/ is
 * newer than every source, so tests can run the real entry points (API, workers, CLI) as child processes.
 * One lock directory for every caller (system tests, CLI tests, spawned workers): two compilers writing
 * dist/ at once, or a test reading it while another compiles, would see half of one build and half of the
 * next. A caller that waited for the lock finds dist/ fresh and does not compile again.
 */
export function ensureBuilt(): Promise<void> {
  // The system tests' global set-up compiled already for every file of the run.
  if (process.env[DIST_READY] === '1') return Promise.resolve();
  built ??= (async () => {
    const root = projectRoot();
    await mkdir(join(root, 'dist'), { recursive: true });
    const lock = join(root, 'dist', '.build-lock');
    for (;;) {
      try {
        await mkdir(lock);
        break;
      } catch {
        const age =
          Date.now() -
          (await stat(lock)
            .then((s) => s.mtimeMs)
            .catch(() => Date.now()));
        if (age > 300_000) await rmdir(lock).catch(() => {}); // a crashed run's lock
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    try {
      if (await distIsFresh(root)) return;
      // The packages (`tsc -b sdk` builds shared, client and sdk into their own dist/) before the service,
      // whose compiled files import them by name.
      for (const args of [
        ['-b', 'sdk'],
        ['-p', 'tsconfig.build.json'],
      ]) {
        await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), ...args], {
          cwd: root,
          maxBuffer: 16 << 20,
        });
      }
      await writeFile(join(root, 'dist', BUILT_MARK), new Date().toISOString());
    } finally {
      await rmdir(lock).catch(() => {});
    }
  })();
  return built;
}

const BUILT_MARK = '.built-at';
const SOURCES = ['src', 'workers', 'cli', 'client', 'sdk', 'shared'];

/** True when the last complete build is newer than every TypeScript source it compiles. */
async function distIsFresh(root: string): Promise<boolean> {
  const mark = await stat(join(root, 'dist', BUILT_MARK)).catch(() => undefined);
  if (!mark) return false;
  // The compiled service imports the packages' own builds, which a clean of one package removes.
  for (const pkg of ['shared', 'client', 'sdk']) {
    if (!(await stat(join(root, pkg, 'dist')).catch(() => undefined))) return false;
  }
  const newest = Math.max(
    (await stat(join(root, 'tsconfig.build.json'))).mtimeMs,
    ...(await Promise.all(SOURCES.map((dir) => newestSource(join(root, dir))))),
  );
  return mark.mtimeMs >= newest;
}

async function newestSource(dir: string): Promise<number> {
  let newest = 0;
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  for (const entry of entries) {
    if (!entry.isFile() || !/\.(ts|mts|json)$/.test(entry.name)) continue;
    if (/[\\/](dist|node_modules)([\\/]|$)/.test(entry.parentPath)) continue; // the packages' own builds
    newest = Math.max(newest, (await stat(join(entry.parentPath, entry.name))).mtimeMs);
  }
  return newest;
}

export type ServiceChild = ChildProcess & { output: string[] };

function spawnEntry(entry: string, env: Record<string, string>, flags: readonly string[] = []): ServiceChild {
  const child = spawn(process.execPath, [...flags, join(projectRoot(), entry)], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  }) as ServiceChild;
  child.output = [];
  child.stdout?.on('data', (d: Buffer) => child.output.push(d.toString()));
  child.stderr?.on('data', (d: Buffer) => child.output.push(d.toString()));
  return child;
}

/**
 * Starts `node dist/workers/main.js` with the given roles and environment, and the workers' Node flags as
 * in production (scripts/node-flags.mjs); output is kept for failures.
 */
export function spawnWorkers(roles: string, env: Record<string, string>): ServiceChild {
  return spawnEntry('dist/workers/main.js', { ...env, WORKERS: roles }, WORKER_NODE_FLAGS);
}

/**
 * Starts `node dist/src/main.js` listening on `port` (PUBLIC_URL pointing at it) and waits until /healthz
 * answers. Returns the child and its base URL.
 */
export async function spawnApi(
  env: Record<string, string>,
  port: number,
): Promise<{ child: ServiceChild; url: string }> {
  const url = `http://127.0.0.1:${port}`;
  const child = spawnEntry('dist/src/main.js', {
    ...env,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: url,
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`API exited (${child.exitCode}):\n${child.output.join('')}`);
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { child, url };
    if (Date.now() > deadline) throw new Error(`API did not start:\n${child.output.join('')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** SIGKILL (or another signal) and wait until the process is gone. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  await gone;
}
