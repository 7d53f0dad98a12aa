import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdir, rmdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../../src/platform/paths.js';

const run = promisify(execFile);
let built: Promise<void> | undefined;

/**
 * Compiles the project into dist/ (the same `tsc -p tsconfig.build.json` as `npm run build`) once per test
 * process, so tests can run the real entry points as child processes and kill them with SIGKILL. A lock
 * directory keeps test files running in parallel from compiling into dist/ at the same time.
 */
export function ensureBuilt(): Promise<void> {
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
        if (age > 120_000) await rmdir(lock).catch(() => {});
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    try {
      await run(
        process.execPath,
        [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
        {
          cwd: root,
        },
      );
    } finally {
      await rmdir(lock).catch(() => {});
    }
  })();
  return built;
}

/** Starts `node dist/workers/main.js` with the given roles and environment; output is kept for failures. */
export function spawnWorkers(
  roles: string,
  env: Record<string, string>,
): ChildProcess & { output: string[] } {
  const child = spawn(process.execPath, [join(projectRoot(), 'dist/workers/main.js')], {
    env: { PATH: process.env.PATH ?? '', ...env, WORKERS: roles },
    stdio: ['ignore', 'pipe', 'pipe'],
  }) as ChildProcess & { output: string[] };
  child.output = [];
  child.stdout?.on('data', (d: Buffer) => child.output.push(d.toString()));
  child.stderr?.on('data', (d: Buffer) => child.output.push(d.toString()));
  return child;
}
