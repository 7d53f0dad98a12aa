// The deltas benchmark through the service: one API and one worker process from dist/ on a scratch world
// (bench/soak-env.mjs), releases pushed over HTTP, deltas made by the worker's `deltas` role, and the bytes a
// device on the previous release downloads counted on the wire, as each client downloads them:
//   expo       the launch asset URL asked with A-IM: bsdiff (expo-updates 55+), the patch applied with
//              Debian's bspatch and checked against the release's launch asset;
//   codepush   update_check with the package hash of the base, then download_url (the diff package);
//   capacitor  the per-file manifest the Capacitor routes hand out (CapacitorManifests), every file the
//              device does not hold downloaded from the service.

import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const sha256Hex = (bytes) => createHash('sha256').update(bytes).digest('hex');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what, fn, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

/** Bytes of a GET, and the response. */
async function download(url, headers = {}) {
  const res = await fetch(url, { headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { res, bytes };
}

export async function measureThroughService({ root, env, log, expo, codepush, capacitor }) {
  const { createWorld } = await import('./soak-env.mjs');
  const world = createWorld(root, env, log);
  try {
    await world.start();
    const api = `${world.apiUrl}/api/v1`;
    const call = async (method, path, json, headers = {}) => {
      const res = await fetch(`${api}${path}`, {
        method,
        headers: { ...headers, ...(json ? { 'content-type': 'application/json' } : {}) },
        body: json ? JSON.stringify(json) : undefined,
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return text ? JSON.parse(text) : null;
    };
    const signin = await call('POST', '/auth/signin', {
      email: `bench-deltas-${randomBytes(4).toString('hex')}@example.com`,
      password: 'bench password',
    });
    const auth = { authorization: `Bearer ${signin.token}` };
    const upload = async (appId, bytes) => {
      const res = await fetch(`${api}/apps/${appId}/bundles`, {
        method: 'PUT',
        headers: { ...auth, 'content-type': 'application/octet-stream' },
        body: bytes,
      });
      if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
      return (await res.json()).sha256;
    };
    return {
      expo: await expoDownload(world, call, auth, upload, expo, log),
      codepush: await codePushDownload(world, call, auth, upload, codepush, log),
      capacitor: await capacitorDownload(root, world, call, auth, upload, capacitor, log),
    };
  } finally {
    await world.close();
  }
}

async function expoDownload(world, call, auth, upload, { base, target }, log) {
  const app = await call('POST', '/apps', { name: 'deltas bench expo' }, auth);
  const push = async (version, bytes) =>
    (
      await call(
        'POST',
        '/expo/releases',
        {
          app_id: app.id,
          version,
          runtime_version: '1.0.0',
          platforms: { ios: { bundle: await upload(app.id, bytes), assets: [] } },
        },
        auth,
      )
    ).id;
  const v1 = await push('1.0.0', base);
  const v2 = await push('1.0.1', target);
  const manifestRes = await fetch(`${world.apiUrl}/api/v1/expo/${app.id}/manifest`, {
    headers: {
      'expo-protocol-version': '1',
      'expo-platform': 'ios',
      'expo-runtime-version': '1.0.0',
      'expo-current-update-id': v1,
      'eas-client-id': 'bench-device',
      accept: 'application/expo+json',
    },
  });
  const manifestText = await manifestRes.text();
  if (manifestRes.status !== 200) throw new Error(`manifest: ${manifestRes.status} ${manifestText}`);
  const manifest = JSON.parse(manifestText);
  if (manifest.id !== v2) throw new Error('the manifest does not offer the second release');
  const headers = { 'a-im': 'bsdiff', 'expo-current-update-id': v1, 'expo-requested-update-id': v2 };
  // The worker makes the patch after the push; devices get the full bytes until it is recorded.
  const patch = await waitFor('the Expo patch', async () => {
    const { res, bytes } = await download(manifest.launchAsset.url, headers);
    return res.status === 226 && res.headers.get('expo-base-update-id') === v1 ? bytes : undefined;
  });
  const dir = world.dir;
  writeFileSync(join(dir, 'base.hbc'), base);
  writeFileSync(join(dir, 'patch.bsdiff'), patch);
  const applied = spawnSync('bspatch', [
    join(dir, 'base.hbc'),
    join(dir, 'patched.hbc'),
    join(dir, 'patch.bsdiff'),
  ]);
  if (applied.status !== 0) throw new Error('bspatch refused the patch the service answered');
  const patched = readFileSync(join(dir, 'patched.hbc'));
  if (createHash('sha256').update(patched).digest('base64url') !== manifest.launchAsset.hash)
    throw new Error("the patched launch asset does not have the manifest's hash");
  const fresh = await download(manifest.launchAsset.url);
  log(`expo through the service: ${patch.length} bytes (patch) of ${fresh.bytes.length}`);
  return { download_bytes: patch.length, fresh_device_bytes: fresh.bytes.length };
}

async function codePushDownload(
  world,
  call,
  auth,
  upload,
  { baseZip, targetZip, baseFolderHash, targetFolderHash, assetZip, assetFolderHash },
  log,
) {
  const app = await call('POST', '/apps', { name: 'deltas bench codepush' }, auth);
  const { key } = await call('POST', `/apps/${app.id}/deployment-keys`, { channel: 'production' }, auth);
  for (const [version, zip] of [
    ['1.0.0', baseZip],
    ['1.0.1', targetZip],
  ])
    await call('POST', '/modules', { app_id: app.id, version, sha256: await upload(app.id, zip) }, auth);
  const check = async (current) => {
    const query = new URLSearchParams({
      deployment_key: key,
      app_version: '1.0.0',
      client_unique_id: 'bench-device',
      ...current,
    });
    const res = await fetch(`${world.apiUrl}/v0.1/public/codepush/update_check?${query}`);
    return (await res.json()).update_info;
  };
  // Once the worker has read the release, package_hash is its folder hash, and the diff (when one saved
  // DELTA_MIN_SAVING) is offered to a device on the base; otherwise that device downloads the full zip.
  const offer = await waitFor('the worker to read the CodePush release', async () => {
    const info = await check({ label: '1.0.0', package_hash: baseFolderHash });
    return info.is_available && info.package_hash === targetFolderHash ? info : undefined;
  });
  const got = await download(offer.download_url);
  const full = await download((await check({})).download_url);
  log(`codepush through the service: ${got.bytes.length} bytes of ${full.bytes.length}`);
  // Then a release that changes an image and keeps the bundle, for the same device.
  await call(
    'POST',
    '/modules',
    { app_id: app.id, version: '1.0.2', sha256: await upload(app.id, assetZip) },
    auth,
  );
  const assetOffer = await waitFor('the worker to read the second CodePush release', async () => {
    const info = await check({ label: '1.0.0', package_hash: baseFolderHash });
    return info.is_available && info.package_hash === assetFolderHash ? info : undefined;
  });
  const asset = await download(assetOffer.download_url);
  log(`codepush (a changed image) through the service: ${asset.bytes.length} bytes of ${assetZip.length}`);
  return {
    download_bytes: got.bytes.length,
    fresh_device_bytes: full.bytes.length,
    diff_offered: got.bytes.length < full.bytes.length,
    asset_download_bytes: asset.bytes.length,
  };
}

async function capacitorDownload(root, world, call, auth, upload, { baseZip, targetZip, baseFiles }, log) {
  const app = await call('POST', '/apps', { name: 'deltas bench capacitor' }, auth);
  const ids = [];
  for (const [version, zip] of [
    ['1.0.0', baseZip],
    ['1.0.1', targetZip],
  ])
    ids.push(
      (await call('POST', '/modules', { app_id: app.id, version, sha256: await upload(app.id, zip) }, auth))
        .id,
    );
  const { PostgresDeltasStore } = await import(join(root, 'dist/src/deltas/deltas.postgres-store.js'));
  const { LocalDiskBlobStore } = await import(join(root, 'dist/src/bundles/local-blob-store.js'));
  const { CapacitorManifests } = await import(join(root, 'dist/src/deltas/capacitor-manifest.js'));
  const store = new PostgresDeltasStore(world.db);
  const manifests = new CapacitorManifests(new LocalDiskBlobStore(world.env.BLOB_DIR), async (sha256) => ({
    url: `${world.apiUrl}/api/v1/bundles/${sha256}`,
  }));
  const manifest = await waitFor('the Capacitor manifest', async () =>
    manifests.manifestFor(await store.served(app.id, 500), ids[1], '1.0.0'),
  );
  // The plugin keeps the files whose hash it holds (its cache of installed bundles) and downloads the rest.
  const held = new Set(baseFiles.map((f) => f.sha256));
  let bytes = 0;
  let all = 0;
  for (const entry of manifest) {
    const got = await download(entry.download_url);
    all += got.bytes.length;
    if (!held.has(entry.file_hash)) bytes += got.bytes.length;
  }
  log(`capacitor through the service: ${bytes} bytes of ${targetZip.length} (a new device: ${all})`);
  return { download_bytes: bytes, fresh_device_bytes: all };
}

export { sha256Hex };
