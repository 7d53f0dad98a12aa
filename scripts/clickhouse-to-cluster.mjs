// `npm run clickhouse:to-cluster`: moves a single-server ClickHouse database onto CLICKHOUSE_CLUSTER
// (src/clickhouse-to-cluster.ts; docs/operations/processes-and-scaling.md).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDependencies } from './bootstrap.mjs';
import { buildIfStale } from './build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

ensureDependencies();
buildIfStale(root);
const run = spawnSync(process.execPath, ['dist/src/clickhouse-to-cluster.js'], {
  cwd: root,
  env: process.env,
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
