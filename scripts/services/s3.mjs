// The local S3 server: s3rver (npm, a devDependency) on 127.0.0.1:14568, data in .local/s3, for the tests
// and for `BLOB_STORE=s3 npm start` without S3_ENDPOINT. It speaks the S3 REST API the service uses (object
// PUT/GET/HEAD/DELETE, copy, multipart upload, ListObjectsV2, presigned GET with X-Amz-Expires) and checks
// V4 signatures made with its one key pair (S3RVER/S3RVER). What it does not check, and the tests therefore
// do on our side (docs/operations/storage.md): unsigned requests are let through as anonymous, payload
// hashes and checksums are not verified, AbortMultipartUpload is not implemented (the parts of a cut upload
// stay in its private uploads folder, never listed as keys), and there are no bucket policies.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BootstrapError, log } from './log.mjs';
import { tcpOpen, urlHostPort, waitFor } from './net.mjs';
import { pidIsProgram, readPidfile, tail, withLock } from './process.mjs';
import { PROJECT_ROOT, S3_DIR, S3_PIDFILE, S3_PORT } from './settings.mjs';

/** The local server's one key pair, and the bucket `npm start` uses there. */
export const LOCAL_S3 = {
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
  bucket: 'ota-blobs',
  region: 'us-east-1',
};

/** True when an HTTP GET of / answers as an S3 service (its bucket list). */
async function answersAsS3(endpoint) {
  try {
    const res = await fetch(`${endpoint}/`, { signal: AbortSignal.timeout(2000) });
    const body = await res.text();
    return body.includes('ListAllMyBucketsResult') || `not an S3 answer (HTTP ${res.status})`;
  } catch (e) {
    return e.message;
  }
}

function startS3rver() {
  fs.mkdirSync(path.join(S3_DIR, 'data'), { recursive: true });
  const logfile = path.join(S3_DIR, 's3rver.log');
  const out = fs.openSync(logfile, 'a');
  const bin = path.join(PROJECT_ROOT, 'node_modules', 's3rver', 'bin', 's3rver.js');
  if (!fs.existsSync(bin)) throw new BootstrapError('s3: node_modules/s3rver is missing (run npm ci)');
  const child = spawn(
    process.execPath,
    [
      bin,
      '--directory',
      path.join(S3_DIR, 'data'),
      // Loopback only; path-style addressing (no virtual hosts under amazonaws.com).
      '--address',
      '127.0.0.1',
      '--port',
      String(S3_PORT),
      '--no-vhost-buckets',
      '--configure-bucket',
      LOCAL_S3.bucket,
    ],
    { cwd: S3_DIR, detached: true, stdio: ['ignore', out, out] },
  );
  child.unref();
  fs.closeSync(out);
  fs.writeFileSync(S3_PIDFILE, String(child.pid));
  return logfile;
}

/** The environment that points the service and the tests at an S3 endpoint and its key pair. */
function localEnv() {
  return {
    S3_ENDPOINT: `http://127.0.0.1:${S3_PORT}`,
    S3_REGION: LOCAL_S3.region,
    S3_FORCE_PATH_STYLE: 'true',
    S3_BUCKET: LOCAL_S3.bucket,
    AWS_ACCESS_KEY_ID: LOCAL_S3.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_S3.secretAccessKey,
  };
}

/**
 * S3 reachable: S3_ENDPOINT as given (waited for; the bucket and credentials are the operator's), else the
 * project's s3rver, reused when one answers on its port, started otherwise. Answers the env lines to add.
 */
export async function ensureS3() {
  if (process.env.S3_ENDPOINT) {
    const endpoint = process.env.S3_ENDPOINT.replace(/\/+$/, '');
    const { host, port } = urlHostPort(endpoint, endpoint.startsWith('https:') ? 443 : 80);
    await waitFor(`s3 (S3_ENDPOINT ${host}:${port})`, () => tcpOpen(host, port, 1000));
    log(`s3: using S3_ENDPOINT (${host}:${port} reachable)`);
    return {};
  }
  return withLock(ensureLocalS3);
}

async function ensureLocalS3() {
  const endpoint = `http://127.0.0.1:${S3_PORT}`;
  if (await tcpOpen('127.0.0.1', S3_PORT, 500)) {
    const probe = await answersAsS3(endpoint);
    if (probe !== true)
      throw new BootstrapError(`s3: port ${S3_PORT} is taken by something that is not S3 (${probe})`);
    await ensureBucket(endpoint, LOCAL_S3.bucket);
    log(`s3: reusing the server on ${S3_PORT}`);
    return localEnv();
  }
  const stale = readPidfile(S3_PIDFILE);
  if (stale && !pidIsProgram(stale, 'node')) fs.rmSync(S3_PIDFILE, { force: true });
  const logfile = startS3rver();
  try {
    await waitFor(`s3 on ${S3_PORT}`, () => answersAsS3(endpoint), 30_000);
  } catch (e) {
    throw new BootstrapError(`${e.message}\n--- ${logfile}\n${tail(logfile)}`);
  }
  log(`s3: started s3rver on ${S3_PORT} (data ${path.relative(PROJECT_ROOT, S3_DIR)})`);
  return localEnv();
}

/** Creates the bucket on the local server when it is missing (a server started by another checkout). */
async function ensureBucket(endpoint, bucket) {
  const { S3Client, CreateBucketCommand, HeadBucketCommand } = await import('@aws-sdk/client-s3');
  const client = new S3Client({
    endpoint,
    region: LOCAL_S3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: LOCAL_S3.accessKeyId, secretAccessKey: LOCAL_S3.secretAccessKey },
  });
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket })).catch(async (e) => {
      if (e?.$metadata?.httpStatusCode !== 404) throw e;
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
    });
  } finally {
    client.destroy();
  }
}
