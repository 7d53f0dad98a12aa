// `npm run blobs:migrate`: copies the disk store (BLOB_DIR) into the bucket (BLOB_STORE=s3, S3_BUCKET, ...)
// checking every sha256; safe to run again (docs/operations/storage.md). Without S3_ENDPOINT it targets the
// project's local S3 server, as `BLOB_STORE=s3 npm start` does.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDependencies } from './bootstrap.mjs';
import { buildIfStale } from './build.mjs';
import { ensureS3 } from './services/s3.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

ensureDependencies();
const s3 = process.env.BLOB_STORE === 's3' ? await ensureS3() : {};
buildIfStale(root);
const run = spawnSync(process.execPath, ['dist/src/blobs-migrate.js'], {
  cwd: root,
  env: { ...s3, ...process.env },
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
