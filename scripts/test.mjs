// `npm test`: the same set-up as `npm start` (dependencies, services, plus Chromium for the console's
// browser tests and the Redis and ClickHouse packages the system tests run private servers from), then
// lint, type check and every vitest project (unit, integration, system, browser). Extra arguments go to
// vitest (`npm test -- test/unit`).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDependencies, ensureServices } from './bootstrap.mjs';
import { ensureChromium } from './services/chromium.mjs';
import { ensureS3 } from './services/s3.mjs';
import { ensureServerBinaries } from './services/server-binaries.mjs';
import { ensureTools } from './services/tools.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

ensureDependencies();
const services = await ensureServices();
// The storage, release, update-check, CodePush and Expo tests run a second time on S3 (vitest.config.ts).
const s3 = await ensureS3();
await ensureServerBinaries();
await ensureTools();
const env = { ...process.env, ...services, ...s3, CHROMIUM_PATH: await ensureChromium() };
const bin = (pkg, file) => join(root, 'node_modules', pkg, file);

function step(name, args) {
  const started = Date.now();
  process.stderr.write(`[test] ${name}\n`);
  const result = spawnSync(process.execPath, args, { cwd: root, env, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`[test] ${name} failed\n`);
    process.exit(result.status ?? 1);
  }
  process.stderr.write(`[test] ${name} passed in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

step('lint (biome)', [bin('@biomejs/biome', 'bin/biome'), 'check', '.']);
step('type check (tsc)', [bin('typescript', 'bin/tsc'), '-p', 'tsconfig.json', '--noEmit']);
// The packages (shared, client, sdk) each build on their own into their own dist/.
step('build packages (tsc -b sdk)', [bin('typescript', 'bin/tsc'), '-b', 'sdk']);
step('type check console (tsc)', [bin('typescript', 'bin/tsc'), '-p', 'console/tsconfig.json']);
step('tests (vitest: unit, integration, system, browser)', [
  bin('vitest', 'vitest.mjs'),
  'run',
  ...process.argv.slice(2),
]);
