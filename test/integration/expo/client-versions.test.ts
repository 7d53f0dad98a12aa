import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMultipartMixedResponseAsync } from '@expo/multipart-body-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExpoPlatform } from '../../../src/expo/expo.manifest.js';
import { createDeltasWorker } from '../../../workers/deltas.worker.js';
import type { Worker } from '../../../workers/worker.js';
import { fileContext } from '../../helpers/context.js';
import {
  downloadLaunchAsset,
  downloadLaunchAssetAndroid,
  hashOf,
  type LaunchAssetDownload,
} from '../../helpers/expo-updates-client.js';
import { waitFor } from '../../helpers/wait.js';
import { type ExpoManifest, type ExpoWorld, expoWorld, FIXTURE } from './expo-world.js';

/**
 * Each expo-updates version of test/fixtures/expo-updates/clients.json (SDK 51 to 55, both platforms, with
 * and without launch-asset patches) asks for the manifest with the headers it sends, reads the multipart
 * answer with @expo/multipart-body-parser, downloads the launch asset and the other assets with its asset
 * headers (a patch from the update it runs where it asks for one) and checks every file against the
 * manifest's hash, as the client does before it applies an update.
 */
interface ClientFixture {
  name: string;
  platform: ExpoPlatform;
  patches: boolean;
  manifestHeaders: Record<string, string>;
  assetHeaders: Record<string, string>;
}
const { clients } = JSON.parse(
  readFileSync(new URL('../../fixtures/expo-updates/clients.json', import.meta.url), 'utf8'),
) as { clients: ClientFixture[] };

const metadata = JSON.parse(readFileSync(join(FIXTURE, 'metadata.json'), 'utf8'));
const bundleOf = (platform: ExpoPlatform) =>
  readFileSync(join(FIXTURE, metadata.fileMetadata[platform].bundle));
const image = readFileSync(join(FIXTURE, metadata.fileMetadata.ios.assets[0].path));
const changed = (bytes: Buffer) =>
  Buffer.from(bytes.toString('utf8').replace('OTA fixture', 'OTA fixture, next release'), 'utf8');
const EMBEDDED = '0e0e0e0e-0000-4000-8000-0000000000e5';

const ctx = fileContext({ listen: true });
let worker: Worker;
let world: ExpoWorld;
const v1: Partial<Record<ExpoPlatform, Buffer>> = {};
const v2: Partial<Record<ExpoPlatform, Buffer>> = {};
let first: string;
let second: string;

async function pushRelease(version: string, bundles: Partial<Record<ExpoPlatform, Buffer>>): Promise<string> {
  const imageSha = (await world.client.apps.uploadBundle(world.appId, image)).sha256;
  const platforms: Record<string, unknown> = {};
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

beforeAll(async () => {
  worker = createDeltasWorker(ctx.deps);
  await worker.start();
  world = await expoWorld(ctx, 'team');
  for (const platform of ['ios', 'android'] as const) {
    v1[platform] = bundleOf(platform);
    v2[platform] = changed(bundleOf(platform));
  }
  first = await pushRelease('1.0.0', v1);
  second = await pushRelease('1.0.1', v2);
  await waitFor('the patches of 1.0.1', async () => {
    const rows = await ctx.deps.stores.deltas.deltasOf(second);
    return rows.length >= 2 ? rows : undefined;
  });
}, 120_000);

afterAll(async () => {
  await worker?.stop();
});

const fill = (headers: Record<string, string>, values: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      value.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? ''),
    ]),
  );

describe.each(clients)('expo-updates $name', (client) => {
  it('checks, downloads every file of the update and verifies it against the manifest', async () => {
    const values = {
      platform: client.platform,
      easClientId: `device-${client.name}`,
      runtimeVersion: '1.0.0',
      currentUpdateId: first,
      embeddedUpdateId: EMBEDDED,
      requestedUpdateId: second,
    };
    const res = await fetch(`${ctx.url}/api/v1/expo/${world.appId}/manifest`, {
      headers: fill(client.manifestHeaders, values),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('expo-protocol-version')).toBe('1');
    const parts = await parseMultipartMixedResponseAsync(
      res.headers.get('content-type')!,
      Buffer.from(await res.arrayBuffer()),
    );
    const part = parts.find((p) => 'name' in p && p.name === 'manifest') as { body: string } | undefined;
    const manifest = JSON.parse(part!.body) as ExpoManifest;
    expect(manifest.id).toBe(second);

    let launch: LaunchAssetDownload;
    const running = { id: first, launchAsset: v1[client.platform]! };
    if (client.patches) {
      const download = client.platform === 'android' ? downloadLaunchAssetAndroid : downloadLaunchAsset;
      // The worker's invalidation reaches the routing cache a moment after its rows are written.
      launch = await waitFor('a patch answer', async () => {
        const d = await download(manifest.launchAsset, second, running);
        return d.via === 'patch' || d.patchFailure ? d : undefined;
      });
    } else {
      const asset = await fetch(manifest.launchAsset.url, { headers: fill(client.assetHeaders, values) });
      expect(asset.status).toBe(200);
      const bytes = Buffer.from(await asset.arrayBuffer());
      launch = { bytes, via: 'full', received: bytes.length };
    }
    expect(launch.patchFailure).toBeUndefined();
    expect(launch.via).toBe(client.patches ? 'patch' : 'full');
    expect(hashOf(launch.bytes)).toBe(manifest.launchAsset.hash);
    expect(launch.bytes.equals(v2[client.platform]!)).toBe(true);
    for (const asset of manifest.assets) {
      const got = await fetch(asset.url, { headers: fill(client.assetHeaders, values) });
      expect(got.status).toBe(200);
      expect(hashOf(Buffer.from(await got.arrayBuffer()))).toBe(asset.hash);
    }
  });
});
