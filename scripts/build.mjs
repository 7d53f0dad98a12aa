// Compiles the TypeScript (src, workers, cli, sdk, client) into dist/ unless dist/ is newer than every source.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCE_DIRS = ['src', 'workers', 'cli', 'sdk', 'client'];

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
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= sources) {
    log('[build] dist/ is up to date');
    return;
  }
  log('[build] compiling TypeScript into dist/');
  const tsc = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (tsc.status !== 0) throw new Error('TypeScript build failed');
  spawnSync('touch', [stamp]);
}
