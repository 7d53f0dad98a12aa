// The zip-bomb phase of `npm run bench:hostile` (docs/operations/security.md, "Bounded work per tenant"):
// one workspace pushes three zips of under 1 MB that inflate to 768 MiB each (a web build with one file of
// zeros), each after a small zip release of the same app so the deltas worker has a base to diff against,
// while another workspace pushes an ordinary Capacitor web build. Measured: the worker process's RSS,
// sampled every 50 ms, from before the bombs until their delta jobs have ended (growth = peak - before); how
// long the other app's Capacitor manifest takes from its push (the latency other tenants see); and the
// uploads' answers (with BUNDLE_MAX_UNZIPPED_BYTES high enough to let the bombs in, they are 201 and the
// worker reads them; at the default they are 400 bundle_too_large_unzipped and never reach it).
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import yazl from 'yazl';

const BOMB_BYTES = 768 * 1024 ** 2;
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A zip of the files ({path, bytes} or {path, zeros}), in memory (a bomb deflates to about a thousandth). */
function zipOf(files) {
  const zip = new yazl.ZipFile();
  for (const file of files) {
    if (file.bytes) zip.addBuffer(file.bytes, file.path);
    else zip.addReadStream(zeros(file.zeros), file.path);
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks = [];
    zip.outputStream.on('data', (c) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

function zeros(total) {
  const chunk = Buffer.alloc(1024 * 1024);
  let left = total;
  return new Readable({
    read() {
      if (left <= 0) return this.push(null);
      const n = Math.min(left, chunk.length);
      left -= n;
      this.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  });
}

// The same for every build: incompressible enough that the unchanged file is most of the download.
const VENDOR = Buffer.from(randomBytes(150_000).toString('base64'));
const webBuild = (n) =>
  zipOf([
    { path: 'www/index.html', bytes: Buffer.from(`<html><script src="app.js"></script>${n}</html>`) },
    { path: 'www/app.js', bytes: Buffer.from(`console.log(${n});\n${'// the same code\n'.repeat(4000)}`) },
    { path: 'www/vendor.js', bytes: VENDOR },
  ]);

async function workspace(call, label, runId) {
  const signin = await call('setup', 'POST', '/auth/signin', {
    json: { email: `bench-bombs-${label}-${runId}@example.com`, password: randomBytes(12).toString('hex') },
  });
  const auth = { authorization: `Bearer ${signin.body.token}` };
  await call('setup', 'PUT', `/workspaces/${signin.body.workspace_id}/plan`, { json: { plan: 'pro' }, auth });
  const app = await call('setup', 'POST', '/apps', { json: { name: `${label} app` }, auth, expect: [201] });
  let version = 0;
  /** Uploads and pushes the bytes; answers the release id, or the upload's refusal. */
  const push = async (bytes) => {
    const up = await call('push', 'PUT', `/apps/${app.body.id}/bundles`, {
      raw: bytes,
      auth,
      expect: [201, 400],
    });
    if (up.status !== 201) return { refused: up.body?.code ?? up.status };
    version += 1;
    const release = await call('push', 'POST', '/modules', {
      json: { app_id: app.body.id, version: `1.0.${version}`, sha256: sha256(bytes) },
      auth,
      expect: [201],
    });
    return { releaseId: release.body.id };
  };
  return { push };
}

/** Runs the phase on a started world (bench/soak-env.mjs); answers its figures. */
export async function zipBombPhase({ call, world, rssMb, log, runId }) {
  const bomber = await workspace(call, 'bomber', runId);
  const other = await workspace(call, 'other', runId);
  log('zip bombs: making three 768 MiB-inflating zips');
  const bombs = [];
  for (let i = 0; i < 3; i++)
    bombs.push(
      await zipOf([
        { path: 'www/index.html', bytes: Buffer.from(`<html>${i}</html>`) },
        { path: 'www/bomb.bin', zeros: BOMB_BYTES },
      ]),
    );
  const base = await bomber.push(await webBuild(0));
  const otherBase = await other.push(await webBuild(1));
  await waitForPackage(world, otherBase.releaseId, 120_000);

  const pid = world.procs.worker.pid;
  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => {
    const now = rssMb(pid);
    if (now !== null && now > peak) peak = now;
  }, 50);
  try {
    const pushes = [];
    for (const bomb of bombs) pushes.push(await bomber.push(bomb));
    log(`zip bombs: ${bombs.map((b) => b.length).join(', ')} bytes, pushes ${JSON.stringify(pushes)}`);
    // The other tenant's ordinary push, right behind the bombs.
    const t0 = Date.now();
    const target = await other.push(await webBuild(2));
    const manifestMs = await waitForManifest(world, target.releaseId, 300_000).then((ok) =>
      ok ? Date.now() - t0 : null,
    );
    for (const push of pushes) if (push.releaseId) await waitForPackage(world, push.releaseId, 300_000);
    return {
      bomb_inflated_mib: BOMB_BYTES / 1024 ** 2,
      bomb_zip_bytes: bombs.map((b) => b.length),
      uploads: pushes.map((p) => (p.releaseId ? 'accepted' : p.refused)),
      base_release: Boolean(base.releaseId),
      worker_rss_mb: { before, peak, growth: Math.round((peak - before) * 10) / 10 },
      other_app_manifest_ms: manifestMs,
    };
  } finally {
    clearInterval(sampler);
  }
}

async function waitForManifest(world, releaseId, timeoutMs) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const { rowCount } = await world.db.query(
      `SELECT 1 FROM release_deltas WHERE target_release_id = $1 AND kind = 'capacitor-files'`,
      [releaseId],
    );
    if (rowCount > 0) return true;
    await sleep(100);
  }
  return false;
}

/** The release's delta job has recorded what its bytes are (its package row). */
async function waitForPackage(world, releaseId, timeoutMs) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const { rowCount } = await world.db.query('SELECT 1 FROM release_packages WHERE release_id = $1', [
      releaseId,
    ]);
    if (rowCount > 0) return true;
    await sleep(200);
  }
  return false;
}
