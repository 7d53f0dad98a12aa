// `npm run test:cluster`: the project's services (Postgres for the control data, the S3 server), then the
// cluster engines of scripts/services/cluster.mjs (installing ZooKeeper when missing), then the `cluster`
// vitest project (test/cluster) against them. Extra arguments go to vitest.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDependencies, ensureServices } from './bootstrap.mjs';
import { ensureClusterEngines } from './services/cluster.mjs';
import { ensureS3 } from './services/s3.mjs';
import { ensureServerBinaries } from './services/server-binaries.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

ensureDependencies();
const services = await ensureServices();
const s3 = await ensureS3();
await ensureServerBinaries();
const cluster = await ensureClusterEngines();
const env = { ...process.env, ...services, ...s3, ...cluster };
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const args = process.argv.slice(2);
const result = spawnSync(process.execPath, [vitest, 'run', '--project', 'cluster', ...args], {
  cwd: root,
  env,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
