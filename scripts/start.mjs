// `npm start`: dependencies, local services (unless URLs are given), build, migrations, then the API and
// the workers as two child processes. Ctrl-C (or SIGTERM) stops both gracefully.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCheckoutServices, ensureDependencies } from './bootstrap.mjs';
import { buildIfStale } from './build.mjs';
import { localSecrets } from './local-secrets.mjs';
import { localApiUrl, reachableHost, startBanner, writeLocalServer } from './local-server.mjs';
import { WORKER_NODE_FLAGS } from './node-flags.mjs';
import { tcpOpen } from './services/net.mjs';
import { sleep } from './services/process.mjs';
import { ensureS3 } from './services/s3.mjs';
import { ensureTools } from './services/tools.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

ensureDependencies();
const host = process.env.HOST ?? '127.0.0.1';
const port = process.env.PORT ?? '8080';
const apiUrl = localApiUrl(host, port);
// Another checkout's `npm start` (or anything else) on the port: say so now, not after the API fails.
if (await tcpOpen(reachableHost(host), Number(port), 500)) {
  console.error(
    `[start] ${apiUrl} is taken (another checkout's \`npm start\`?); start this one on another port, e.g. PORT=${Number(port) + 1} npm start`,
  );
  process.exit(1);
}

// The servers are shared with any other checkout on the machine; the data is this checkout's own.
const services = await ensureCheckoutServices();
await ensureTools();
// The disk store is the default; BLOB_STORE=s3 without S3_ENDPOINT gets the project's local S3 server.
const s3 = process.env.BLOB_STORE === 's3' ? await ensureS3() : {};
const env = { ...s3, ...process.env, ...services, ...localSecrets(root) };
buildIfStale(root);

const migrate = spawnSync(process.execPath, ['dist/src/migrate.js'], { cwd: root, env, stdio: 'inherit' });
if (migrate.status !== 0) {
  console.error('[start] migrations failed');
  process.exit(1);
}

// The API and workers get the service role only: the schema owner's login is for migrations.
const { DATABASE_MIGRATION_URL: _owner, ...serviceEnv } = env;
const children = [
  ['api', spawn(process.execPath, ['dist/src/main.js'], { cwd: root, env: serviceEnv, stdio: 'inherit' })],
  [
    'workers',
    spawn(process.execPath, [...WORKER_NODE_FLAGS, 'dist/workers/main.js'], {
      cwd: root,
      env: serviceEnv,
      stdio: 'inherit',
    }),
  ],
];

let stopping = false;
function stopAll(code) {
  if (stopping) return;
  stopping = true;
  for (const [, child] of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 15_000).unref();
  Promise.all(
    children.map(([, c]) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null)),
  ).then(() => process.exit(code));
}
for (const [name, child] of children) {
  child.once('exit', (code, signal) => {
    if (!stopping) {
      console.error(`[start] ${name} exited (${signal ?? code}); stopping`);
      stopAll(code === 0 ? 0 : 1);
    }
  });
}
process.once('SIGINT', () => stopAll(0));
process.once('SIGTERM', () => stopAll(0));

// Said once the API accepts connections (it migrates, connects and warms up first), with the address
// written for the CLI in this checkout.
const api = children[0][1];
while (!stopping && api.exitCode === null) {
  if (await tcpOpen(reachableHost(host), Number(port), 500)) {
    writeLocalServer(root, apiUrl);
    console.error(startBanner(apiUrl));
    break;
  }
  await sleep(200);
}
