// Compiles the packages (shared, client, sdk: `tsc -b sdk`, each into its own dist/) and the service (src,
// workers, cli, client, shared) into dist/ unless dist/ is newer than every source,
// and builds the web console into console/dist/ unless it is newer than the console's sources.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCE_DIRS = ['src', 'workers', 'cli', 'sdk', 'client', 'shared'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

export function buildIfStale(root, log = (m) => process.stderr.write(`${m}\n`)) {
  const stamp = join(root, 'dist', '.build-stamp');
  const sources = Math.max(
    ...SOURCE_DIRS.map((d) => newestMtime(join(root, d))),
    newestMtime(join(root, 'tsconfig.json')),
    newestMtime(join(root, 'tsconfig.build.json')),
    newestMtime(join(root, 'package-lock.json')),
  );
  buildConsoleIfStale(root, log);
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= sources) {
    log('[build] dist/ is up to date');
    return;
  }
  log('[build] compiling TypeScript into dist/');
  // The packages first: the compiled service imports `@ota/shared/...` and `@ota/client/...`, which resolve
  // to their own dist/ folders at run time.
  for (const args of [
    ['-b', 'sdk'],
    ['-p', 'tsconfig.build.json'],
  ]) {
    const tsc = spawnSync(
      process.execPath,
      [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), ...args],
      {
        cwd: root,
        stdio: 'inherit',
      },
    );
    if (tsc.status !== 0) throw new Error('TypeScript build failed');
  }
  spawnSync('touch', [stamp]);
}

/** What the console bundle is made of: its own sources, plus the client and plan table it imports. */
const CONSOLE_SOURCES = [
  'console/index.html',
  'console/src',
  'console/vite.config.ts',
  'client',
  'src/plans',
  'src/platform/errors.ts',
  'package-lock.json',
];

/** Runs `vite build` for the console when console/dist/index.html is older than any of its sources. */
export function buildConsoleIfStale(root, log = (m) => process.stderr.write(`${m}\n`)) {
  const built = join(root, 'console', 'dist', 'index.html');
  const sources = Math.max(...CONSOLE_SOURCES.map((p) => newestMtime(join(root, p))));
  if (existsSync(built) && statSync(built).mtimeMs >= sources) {
    log('[build] console/dist/ is up to date');
    return;
  }
  log('[build] building the web console into console/dist/');
  const vite = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'console/vite.config.ts',
      '--logLevel',
      'warn',
    ],
    { cwd: root, stdio: 'inherit' },
  );
  if (vite.status !== 0) throw new Error('console build failed');
}
