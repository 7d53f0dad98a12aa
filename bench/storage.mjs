// `npm run bench:storage`: bundle storage on S3 (docs/operations/storage.md). One API and one worker from
// dist/ on a scratch world (bench/soak-env.mjs) with BLOB_STORE=s3 on the project's local S3 server and
// BUNDLE_BASE_URL pointing at the bucket (the server serves unsigned GETs, as a public bucket or a CDN).
//
//   upload    PUT /apps/{id}/bundles of a --mb file (100) over HTTP: seconds, and the API's resident memory
//             sampled every 20 ms, peak minus before (goal: at most 64 MB).
//   baseline  a plain PutObject of the same bytes to the same server from this process, in the same run:
//             throughput ratio upload / PutObject (goal: at least 0.7).
//   download  --downloads (20) update checks, each followed by a download of the bundle from the URL the
//             check hands out: the API's CPU per downloaded MB (goal: about 0; devices fetch from the store).
// Rounds (--rounds, 3) alternate baseline and upload; medians are reported. Writes bench/results/storage.json.
//
// Options: --mb <n> (100), --rounds <n> (3), --downloads <n> (20), --no-build. A short check of the script:
// `node bench/storage.mjs --mb 8 --rounds 1 --downloads 3`.

import { randomBytes } from 'node:crypto';
import { createReadStream, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDependencies, ensureServices } from '../scripts/bootstrap.mjs';
import { buildIfStale } from '../scripts/build.mjs';
import { localSecrets } from '../scripts/local-secrets.mjs';
import { ensureS3 } from '../scripts/services/s3.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const log = (msg) => process.stderr.write(`[storage] ${msg}\n`);
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const MB = option('mb', 100);
const ROUNDS = option('rounds', 3);
const DOWNLOADS = option('downloads', 20);

ensureDependencies();
const s3env = await ensureS3();
const env = { ...process.env, ...(await ensureServices()), ...s3env, ...localSecrets(root) };
if (!args.includes('--no-build')) buildIfStale(root);
const { createWorld, rssMb, cpuSeconds } = await import('./soak-env.mjs');
const {
  S3Client,
  CreateBucketCommand,
  PutObjectCommand,
  DeleteObjectCommand,
  ListObjectsV2Command,
  DeleteBucketCommand,
} = await import('@aws-sdk/client-s3');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : null;
};
const round = (x, d = 1) => (x === null ? null : Math.round(x * 10 ** d) / 10 ** d);

const bucket = `ota-bench-${randomBytes(4).toString('hex')}`;
const s3 = new S3Client({
  endpoint: env.S3_ENDPOINT,
  region: env.S3_REGION,
  forcePathStyle: true,
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
  credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY },
});

/** Streams the file to the API (Content-Length declared) while sampling the API's RSS. */
async function upload(world, auth, appId, file, apiPid) {
  const before = rssMb(apiPid);
  let peak = before;
  const sampler = setInterval(() => {
    const now = rssMb(apiPid);
    if (now !== null && now > peak) peak = now;
  }, 20);
  const started = performance.now();
  // node:http, as the CLI sends it and as the SDK sends the baseline: the client costs the same on both sides.
  const { status, body } = await new Promise((resolve, reject) => {
    const req = httpRequest(
      `${world.apiUrl}/api/v1/apps/${appId}/bundles`,
      {
        method: 'PUT',
        headers: {
          ...auth,
          'content-type': 'application/octet-stream',
          'content-length': String(statSync(file).size),
        },
      },
      (res) => {
        const parts = [];
        res.on('data', (d) => parts.push(d));
        res.on('end', () =>
          resolve({ status: res.statusCode, body: JSON.parse(Buffer.concat(parts).toString()) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    createReadStream(file).pipe(req);
  });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  if (status !== 201) throw new Error(`upload answered ${status}: ${JSON.stringify(body)}`);
  return { seconds, rssBeforeMb: before, rssPeakMb: peak, sha256: body.sha256 };
}

async function plainPut(file, key) {
  const started = performance.now();
  await s3.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: key,
      Body: createReadStream(file),
      ContentLength: statSync(file).size,
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
  return seconds;
}

async function main(world) {
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  await world.start();
  const api = world.procs.api;
  const call = async (method, path, json, auth = {}) => {
    const res = await fetch(`${world.apiUrl}/api/v1${path}`, {
      method,
      headers: { ...auth, ...(json ? { 'content-type': 'application/json' } : {}) },
      body: json ? JSON.stringify(json) : undefined,
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  const signin = await call('POST', '/auth/signin', {
    email: `bench-storage-${randomBytes(4).toString('hex')}@example.com`,
    password: 'bench password',
  });
  const auth = { authorization: `Bearer ${signin.token}` };
  const app = await call('POST', '/apps', { name: 'storage bench' }, auth);

  const uploads = [];
  const baselines = [];
  for (let r = 0; r < ROUNDS; r++) {
    // New bytes each round: the same bytes would be found stored and not copied again.
    const file = join(world.dir, `bundle-${r}.bin`);
    const bytes = Buffer.alloc(MB * 1024 * 1024);
    for (let at = 0; at < bytes.length; at += 1024 * 1024) randomBytes(1024 * 1024).copy(bytes, at);
    writeFileSync(file, bytes);
    baselines.push(await plainPut(file, `plain-${r}`));
    const u = await upload(world, auth, app.id, file, api.pid);
    uploads.push(u);
    log(
      `round ${r + 1}: upload ${round(u.seconds, 2)} s (PutObject ${round(baselines.at(-1), 2)} s), API RSS +${round(u.rssPeakMb - u.rssBeforeMb)} MB`,
    );
  }

  // Push the last upload, then update checks with downloads from the URLs they hand out.
  const sha256 = uploads.at(-1).sha256;
  await call('POST', '/modules', { app_id: app.id, version: '1.0.0', sha256 }, auth);
  const cpuBefore = cpuSeconds(api.pid);
  let downloadedBytes = 0;
  let firstUrl = null;
  for (let i = 0; i < DOWNLOADS; i++) {
    const check = await call('POST', '/updates/check', { app_id: app.id, device_id: `bench-${i}` });
    const url = check.update?.url;
    if (!url) throw new Error(`no update offered: ${JSON.stringify(check)}`);
    firstUrl ??= url;
    const res = await fetch(url);
    downloadedBytes += (await res.arrayBuffer()).byteLength;
  }
  const apiCpuSeconds = cpuSeconds(api.pid) - cpuBefore;
  const downloadedMb = downloadedBytes / 2 ** 20;

  const uploadMbps = MB / median(uploads.map((u) => u.seconds));
  const putMbps = MB / median(baselines);
  const rssGrowth = median(uploads.map((u) => u.rssPeakMb - u.rssBeforeMb));
  const result = {
    measured_at: new Date().toISOString(),
    settings: { mb: MB, rounds: ROUNDS, downloads: DOWNLOADS, server: 's3rver (local)' },
    upload: {
      mb_per_s: round(uploadMbps),
      seconds: uploads.map((u) => round(u.seconds, 3)),
      api_rss_growth_mb: round(rssGrowth),
      api_rss_growth_mb_each: uploads.map((u) => round(u.rssPeakMb - u.rssBeforeMb)),
      rss_goal_mb: 64,
    },
    baseline: { put_object_mb_per_s: round(putMbps), seconds: baselines.map((s) => round(s, 3)) },
    ratio: round(uploadMbps / putMbps, 2),
    download: {
      downloaded_mb: round(downloadedMb),
      from_api: firstUrl.startsWith(world.apiUrl),
      api_cpu_ms_total: round(apiCpuSeconds * 1000),
      api_cpu_us_per_downloaded_mb: round((apiCpuSeconds * 1e6) / downloadedMb),
      checks: DOWNLOADS,
    },
  };
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  writeFileSync(join(root, 'bench', 'results', 'storage.json'), `${JSON.stringify(result, null, 2)}\n`);
  log(JSON.stringify(result));
}

async function dropBucket() {
  for (;;) {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket })).catch(() => ({}));
    const keys = (page.Contents ?? []).map((o) => o.Key);
    if (keys.length === 0) break;
    for (const Key of keys) await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key }));
  }
  await s3.send(new DeleteBucketCommand({ Bucket: bucket })).catch(() => {});
}

const world = createWorld(root, env, log, {
  BLOB_STORE: 's3',
  S3_BUCKET: bucket,
  S3_ENDPOINT: env.S3_ENDPOINT,
  S3_FORCE_PATH_STYLE: 'true',
  BUNDLE_BASE_URL: `${env.S3_ENDPOINT}/${bucket}`,
  BUNDLE_MAX_BYTES: String(Math.max(MB + 1, 101) * 1024 * 1024),
});
let code = 0;
try {
  await main(world);
} catch (err) {
  log(`FAILED: ${err?.stack ?? err}`);
  code = 1;
} finally {
  await world.close();
  await dropBucket();
  s3.destroy();
}
process.exit(code);
