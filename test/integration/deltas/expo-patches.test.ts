import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ExpoPlatform } from '../../../src/expo/expo.manifest.js';
import { createDeltasWorker } from '../../../workers/deltas.worker.js';
import type { Worker } from '../../../workers/worker.js';
import { bspatch, debianBspatch } from '../../helpers/bspatch.js';
import { fileContext } from '../../helpers/context.js';
import {
  downloadLaunchAsset,
  downloadLaunchAssetAndroid,
  hashOf,
} from '../../helpers/expo-updates-client.js';
import { waitFor } from '../../helpers/wait.js';
import {
  type ExpoManifest,
  type ExpoWorld,
  expoHeaders,
  expoWorld,
  FIXTURE,
  getManifest,
  partsOf,
} from '../expo/expo-world.js';

/**
 * Expo launch assets answered as patches (docs/reference/delta-updates.md): releases pushed through the
 * API, patches made by the deltas worker, and downloads made as expo-updates makes them.
 */
const metadata = JSON.parse(readFileSync(join(FIXTURE, 'metadata.json'), 'utf8'));
const fixtureFile = (platform: ExpoPlatform) =>
  readFileSync(join(FIXTURE, metadata.fileMetadata[platform].bundle));
const image = readFileSync(join(FIXTURE, metadata.fileMetadata.ios.assets[0].path));
const changed = (bytes: Buffer, to: string) =>
  Buffer.from(bytes.toString('utf8').replace('OTA fixture', to), 'utf8');

let worker: Worker;
let world: ExpoWorld;
const iosV1 = fixtureFile('ios');
const iosV2 = changed(iosV1, 'OTA fixture, second release');
let v1: string;
let v2: string;

async function pushBundles(version: string, bundles: Partial<Record<ExpoPlatform, Buffer>>): Promise<string> {
  const imageSha = (await world.client.apps.uploadBundle(world.appId, image)).sha256;
  const platforms: Record<string, { bundle: string; assets: Array<{ sha256: string; ext: string }> }> = {};
  for (const [platform, bytes] of Object.entries(bundles)) {
    const sha256 = (await world.client.apps.uploadBundle(world.appId, bytes)).sha256;
    platforms[platform] = { bundle: sha256, assets: [{ sha256: imageSha, ext: 'png' }] };
  }
  const release = await world.client.expo.push({
    app_id: world.appId,
    version,
    runtime_version: '1.0.0',
    platforms,
  } as never);
  return (release as { id: string }).id;
}

async function manifestFor(platform: ExpoPlatform, current?: string): Promise<ExpoManifest> {
  const res = await getManifest(
    ctx,
    world.appId,
    expoHeaders(platform, {
      'eas-client-id': 'device-1',
      ...(current ? { 'expo-current-update-id': current } : {}),
    }),
  );
  return (await partsOf(res)).manifest!.json;
}

const patchHeaders = (current: string, requested: string) => ({
  'a-im': 'bsdiff',
  'expo-current-update-id': current,
  'expo-requested-update-id': requested,
});

const ctx = fileContext({ listen: true });
beforeAll(async () => {
  worker = createDeltasWorker(ctx.deps);
  await worker.start();
  world = await expoWorld(ctx, 'team');
  v1 = await pushBundles('1.0.0', { ios: iosV1, android: fixtureFile('android') });
  v2 = await pushBundles('1.0.1', { ios: iosV2, android: fixtureFile('android') });
  await waitFor('the patch of 1.0.1', async () => {
    const rows = await ctx.deps.stores.deltas.deltasOf(v2);
    return rows.length > 0 ? rows : undefined;
  });
}, 120_000);

afterAll(async () => {
  await worker?.stop();
});

describe('Expo launch asset patches', () => {
  it("answer 226 with the patch from the device's update, which bspatch turns into the manifest's hash", async () => {
    const manifest = await manifestFor('ios', v1);
    expect(manifest.id).toBe(v2);
    // The launch asset's URL is the service's own, whatever the store: patches are negotiated there.
    expect(manifest.launchAsset.url.startsWith(`${ctx.url}/api/v1/expo/${world.appId}/assets/`)).toBe(true);

    // The worker's invalidation reaches the API's routing cache: no restart, no wait for its TTL.
    const res = await waitFor('a patch answer', async () => {
      const r = await fetch(manifest.launchAsset.url, { headers: patchHeaders(v1, v2) });
      if (r.status === 226) return r;
      await r.arrayBuffer();
      return undefined;
    });
    const patch = Buffer.from(await res.arrayBuffer());
    expect(res.headers.get('im')).toBe('bsdiff');
    expect(res.headers.get('expo-base-update-id')).toBe(v1);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('vary')).toBe('A-IM, Expo-Current-Update-ID');
    expect(res.headers.get('content-length')).toBe(String(patch.length));
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(patch.subarray(0, 8).toString('latin1')).toBe('BSDIFF40');
    expect(patch.length).toBeLessThan(iosV2.length / 10);
    expect(hashOf(bspatch(iosV1, patch))).toBe(manifest.launchAsset.hash);
    expect(hashOf(await debianBspatch(iosV1, patch))).toBe(manifest.launchAsset.hash);

    const head = await fetch(manifest.launchAsset.url, { method: 'HEAD', headers: patchHeaders(v1, v2) });
    expect(head.status).toBe(226);
    expect(head.headers.get('content-length')).toBe(String(patch.length));

    // On a warm routing cache, choosing and answering a patch asks Postgres nothing.
    const queries = vi.spyOn(ctx.deps.db, 'query');
    try {
      for (let i = 0; i < 3; i++) {
        const again = await fetch(manifest.launchAsset.url, { headers: patchHeaders(v1, v2) });
        await again.arrayBuffer();
        expect(again.status).toBe(226);
      }
      expect(queries).not.toHaveBeenCalled();
    } finally {
      queries.mockRestore();
    }
  });

  it('download as expo-updates does: a patch from the running update, full bytes without one', async () => {
    const manifest = await manifestFor('ios', v1);
    const patched = await downloadLaunchAsset(manifest.launchAsset, v2, { id: v1, launchAsset: iosV1 });
    expect(patched.via).toBe('patch');
    expect(patched.bytes.equals(iosV2)).toBe(true);
    expect(patched.received).toBeLessThan(iosV2.length / 10);

    // A fresh install runs its embedded update, which nobody recorded: the full bytes.
    const fresh = await downloadLaunchAsset(manifest.launchAsset, v2, {
      id: '0a0b0c0d-0000-4000-8000-000000000000',
      launchAsset: Buffer.from('embedded'),
    });
    expect(fresh).toMatchObject({ via: 'full' });
    expect(fresh.patchFailure).toBeUndefined();
    // No A-IM (an older expo-updates, or Android without bsdiff support): the full bytes.
    const plain = await fetch(manifest.launchAsset.url);
    expect(plain.status).toBe(200);
    expect(Buffer.from(await plain.arrayBuffer()).equals(iosV2)).toBe(true);
  });

  it('fall back to the full bytes when the patch does not apply to what the device holds', async () => {
    const manifest = await manifestFor('ios', v1);
    // The device says it runs 1.0.0 but holds other bytes: the patched result fails the hash check.
    const wrong = changed(iosV1, 'OTA fixture, edited on the device');
    const download = await downloadLaunchAsset(manifest.launchAsset, v2, { id: v1, launchAsset: wrong });
    expect(download.via).toBe('full');
    expect(download.patchFailure).toBe('patched asset hash mismatch');
    expect(download.bytes.equals(iosV2)).toBe(true);
  });

  it('answer the full bytes for a platform without a patch, and on the old URL without the app', async () => {
    // Android's launch asset did not change: nothing to patch, and no Android patch was made.
    const android = await manifestFor('android', v1);
    const res = await fetch(android.launchAsset.url, { headers: patchHeaders(v1, v2), redirect: 'manual' });
    await res.arrayBuffer();
    expect(res.status).toBe(ctx.deps.blobs.kind === 's3' ? 302 : 200);
    expect(res.headers.get('vary')).toBe('A-IM, Expo-Current-Update-ID');
    expect(res.headers.get('im')).toBeNull();

    const ios = await manifestFor('ios', v1);
    const file = ios.launchAsset.url.slice(ios.launchAsset.url.lastIndexOf('/') + 1);
    const old = await fetch(`${ctx.url}/api/v1/expo/assets/${file}`, {
      headers: patchHeaders(v1, v2),
      redirect: 'manual',
    });
    await old.arrayBuffer();
    expect(old.status).toBe(ctx.deps.blobs.kind === 's3' ? 302 : 200);
  });

  it("count what the launch asset URL hands out in the release's bytes_served", async () => {
    const manifest = await manifestFor('ios', v1);
    const servedOf = async () => {
      await ctx.deps.stores.bytesServed.flush();
      return (await world.client.modules.get(v2)).stats.bytes_served;
    };
    const before = await servedOf();
    const patched = await downloadLaunchAsset(manifest.launchAsset, v2, { id: v1, launchAsset: iosV1 });
    // A full download naming the release it is for (expo-updates sends Expo-Requested-Update-ID).
    const full = await fetch(manifest.launchAsset.url, { headers: { 'expo-requested-update-id': v2 } });
    await full.arrayBuffer();
    // HEAD, a byte range, or a request naming no release hands out nothing counted.
    await fetch(manifest.launchAsset.url, { method: 'HEAD', headers: patchHeaders(v1, v2) });
    await (await fetch(manifest.launchAsset.url, { headers: { range: 'bytes=0-9' } })).arrayBuffer();
    await (await fetch(manifest.launchAsset.url)).arrayBuffer();
    expect(await servedOf()).toEqual({
      full: before.full + iosV2.length,
      patch: before.patch + patched.received,
      per_file: 0,
    });
    // The first release's statistics are its own.
    expect((await world.client.modules.get(v1)).stats.bytes_served).toEqual({
      full: 0,
      patch: 0,
      per_file: 0,
    });
  });

  it('answer the full bytes when the patch is gone from the store, and a client gets its update', async () => {
    const manifest = await manifestFor('ios', v1);
    const [row] = await ctx.deps.stores.deltas.deltasOf(v2);
    await ctx.deps.blobs.delete(row!.blob_sha256);
    const res = await fetch(manifest.launchAsset.url, { headers: patchHeaders(v1, v2), redirect: 'manual' });
    await res.arrayBuffer();
    expect(res.status).toBe(ctx.deps.blobs.kind === 's3' ? 302 : 200);
    const download = await downloadLaunchAsset(manifest.launchAsset, v2, { id: v1, launchAsset: iosV1 });
    expect(download.via).toBe('full');
    expect(download.bytes.equals(iosV2)).toBe(true);
  });
});

describe('patches from the update embedded in the binary', () => {
  const EMBEDDED = '0e0e0e0e-0000-4000-8000-00000000e1b1';
  const embeddedBytes = changed(iosV1, 'OTA fixture, as built into the binary');
  let other: ExpoWorld;

  const pushWith = async (version: string, bundle: Buffer, embedded?: object) => {
    const bundleSha = (await other.client.apps.uploadBundle(other.appId, bundle)).sha256;
    const release = await other.client.expo.push({
      app_id: other.appId,
      version,
      runtime_version: '1.0.0',
      platforms: { ios: { bundle: bundleSha, assets: [] } },
      ...(embedded ? { embedded } : {}),
    } as never);
    return (release as { id: string }).id;
  };
  const patchesOf = (id: string, count: number) =>
    waitFor(`${count} patches of ${id}`, async () => {
      const rows = await ctx.deps.stores.deltas.deltasOf(id);
      return rows.length >= count ? rows : undefined;
    });

  beforeAll(async () => {
    other = await expoWorld(ctx, 'team');
  });

  it('are made when a push records it, and a fresh install downloads one', async () => {
    const embeddedSha = (await other.client.apps.uploadBundle(other.appId, embeddedBytes)).sha256;
    const first = await pushWith('2.0.0', iosV2, {
      ios: { update_id: EMBEDDED.toUpperCase(), bundle: embeddedSha },
    });
    const [row] = await patchesOf(first, 1);
    expect(row).toMatchObject({
      kind: 'expo-bsdiff',
      platform: 'ios',
      base_update_id: EMBEDDED,
      base_release_id: null,
    });

    const res = await getManifest(
      ctx,
      other.appId,
      expoHeaders('ios', { 'expo-current-update-id': EMBEDDED }),
    );
    const manifest = (await partsOf(res)).manifest!.json;
    const download = await waitFor('a patch from the embedded update', async () => {
      const d = await downloadLaunchAsset(manifest.launchAsset, first, {
        id: EMBEDDED,
        launchAsset: embeddedBytes,
      });
      return d.via === 'patch' ? d : undefined;
    });
    expect(download.bytes.equals(iosV2)).toBe(true);

    // A later release of the runtime patches from it too, recorded once for the binary.
    const third = changed(iosV1, 'OTA fixture, third release');
    const later = await pushWith('2.0.1', third);
    const rows = await patchesOf(later, 2);
    expect(rows.map((r) => r.base_update_id).sort()).toEqual([EMBEDDED, first].sort());
  });

  it('are refused for a platform the release does not serve, or a bundle never uploaded', async () => {
    const embeddedSha = (await other.client.apps.uploadBundle(other.appId, embeddedBytes)).sha256;
    await expect(
      pushWith('2.1.0', iosV2, { android: { update_id: EMBEDDED, bundle: embeddedSha } }),
    ).rejects.toMatchObject({ status: 400, code: 'embedded_platform_not_pushed' });
    await expect(
      pushWith('2.1.1', iosV2, { ios: { update_id: EMBEDDED, bundle: 'ab'.repeat(32) } }),
    ).rejects.toMatchObject({ status: 400, code: 'unknown_bundle' });
  });
});

describe('expo-updates for Android with enableBsdiffPatchSupport (SDK 55)', () => {
  const androidV1 = fixtureFile('android');
  const androidV2 = changed(androidV1, 'OTA fixture, second Android release');
  let android: ExpoWorld;
  let a1: string;
  let a2: string;

  const pushAndroid = async (version: string, bundle: Buffer) => {
    const sha256 = (await android.client.apps.uploadBundle(android.appId, bundle)).sha256;
    const release = await android.client.expo.push({
      app_id: android.appId,
      version,
      runtime_version: '1.0.0',
      platforms: { android: { bundle: sha256, assets: [] } },
    } as never);
    return (release as { id: string }).id;
  };
  const launchAssetFor = async (current: string) => {
    const res = await getManifest(
      ctx,
      android.appId,
      expoHeaders('android', { 'eas-client-id': 'android-1', 'expo-current-update-id': current }),
    );
    return (await partsOf(res)).manifest!.json.launchAsset;
  };

  beforeAll(async () => {
    android = await expoWorld(ctx, 'team');
    a1 = await pushAndroid('3.0.0', androidV1);
    a2 = await pushAndroid('3.0.1', androidV2);
    await waitFor('the Android patch of 3.0.1', async () => {
      const rows = await ctx.deps.stores.deltas.deltasOf(a2);
      return rows.length > 0 ? rows : undefined;
    });
  });

  it('applies the patch: its ETag is the bare id of the update asked for in If-Match', async () => {
    const launchAsset = await launchAssetFor(a1);
    const download = await waitFor('a patch answer', async () => {
      const d = await downloadLaunchAssetAndroid(launchAsset, a2.toUpperCase(), {
        id: a1,
        launchAsset: androidV1,
      });
      return d.via === 'patch' || d.patchFailure ? d : undefined;
    });
    expect(download.patchFailure).toBeUndefined();
    expect(download.via).toBe('patch');
    expect(download.bytes.equals(androidV2)).toBe(true);
    const res = await fetch(launchAsset.url, {
      headers: { 'a-im': 'bsdiff', 'expo-current-update-id': a1, 'if-match': a2, 'if-none-match': a1 },
    });
    await res.arrayBuffer();
    expect(res.status).toBe(226);
    expect(res.headers.get('etag')).toBe(a2);
    expect(res.headers.get('delta-base')).toBe(a1);
  });

  it('never redirects a request carrying If-Match to the store: it answers the full bytes itself', async () => {
    // A device whose running update has no patch to this one: the full bytes, whatever the store.
    const stranger = '0f0f0f0f-0000-4000-8000-0000000000aa';
    const launchAsset = await launchAssetFor(stranger);
    const res = await fetch(launchAsset.url, {
      headers: {
        'a-im': 'bsdiff',
        'expo-current-update-id': stranger,
        'if-match': a2,
        'if-none-match': stranger,
      },
      redirect: 'manual',
    });
    const body = Buffer.from(await res.arrayBuffer());
    // A bucket compares If-Match with its own ETag (the object's MD5) and answers 412.
    expect(res.status).toBe(200);
    expect(body.equals(androidV2)).toBe(true);
    const download = await downloadLaunchAssetAndroid(launchAsset, a2, {
      id: stranger,
      launchAsset: Buffer.from('embedded'),
    });
    expect(download).toMatchObject({ via: 'full' });
    expect(download.bytes.equals(androidV2)).toBe(true);
    // Without the precondition, the object store still serves the bytes (a 302 there).
    const plain = await fetch(launchAsset.url, { redirect: 'manual' });
    await plain.arrayBuffer();
    expect(plain.status).toBe(ctx.deps.blobs.kind === 's3' ? 302 : 200);
  });
});
