import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fileContext } from '../../helpers/context.js';
import { waitFor } from '../../helpers/wait.js';
import {
  type ExpoManifest,
  type ExpoWorld,
  expoHeaders,
  expoWorld,
  getManifest,
  partsOf,
  pushExport,
} from './expo-world.js';

/** What every blob answer carries: no sniffing, a sandbox with nothing allowed, a download. */
const DOWNLOAD = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "sandbox; default-src 'none'",
  'content-disposition': 'attachment',
};

let world: ExpoWorld;
let other: ExpoWorld;
let manifest: ExpoManifest;

const ctx = fileContext({ listen: true });
beforeAll(async () => {
  world = await expoWorld(ctx, 'team');
  other = await expoWorld(ctx, 'team');
  await pushExport(world, { version: '1.0.0' });
  const res = await getManifest(ctx, world.appId, expoHeaders('ios', { 'eas-client-id': 'dev-1' }));
  manifest = (await partsOf(res)).manifest!.json;
}, 120_000);

const headersOf = (res: Response) =>
  Object.fromEntries(Object.keys(DOWNLOAD).map((name) => [name, res.headers.get(name)]));
const fileOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

describe('Expo asset URLs', () => {
  it('are under the app, and answer the bytes as a download of a type no browser runs', async () => {
    const launch = manifest.launchAsset;
    expect(launch.url).toBe(`${ctx.url}/api/v1/expo/${world.appId}/assets/${fileOf(launch.url)}`);
    const res = await fetch(launch.url);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(res.status).toBe(200);
    expect(headersOf(res)).toEqual(DOWNLOAD);
    // JavaScript (or Hermes bytecode) as octet-stream; the manifest still says what it is.
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(launch.contentType).toBe('application/javascript');
    expect(createHash('sha256').update(bytes).digest('base64url')).toBe(launch.hash);

    const image = manifest.assets.find((a) => a.fileExtension === '.png')!;
    const png = await fetch(image.url);
    await png.arrayBuffer();
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(headersOf(png)).toEqual(DOWNLOAD);
  });

  it('carry the download headers on HEAD, ranges and revalidations too', async () => {
    const url = manifest.launchAsset.url;
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(headersOf(head)).toEqual(DOWNLOAD);
    const part = await fetch(url, { headers: { range: 'bytes=0-9' } });
    await part.arrayBuffer();
    expect(part.status).toBe(206);
    expect(headersOf(part)).toEqual(DOWNLOAD);
    const again = await fetch(url, { headers: { 'if-none-match': head.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect(headersOf(again)).toEqual(DOWNLOAD);
  });

  it('serve only files a release of that app names: not under another app, another extension, or unreleased', async () => {
    const file = fileOf(manifest.assets[0]!.url);
    const sha = file.split('.')[0]!;
    const unreleased = (await world.client.apps.uploadBundle(world.appId, randomBytes(64))).sha256;
    for (const path of [
      `/api/v1/expo/${other.appId}/assets/${file}`,
      `/api/v1/expo/${world.appId}/assets/${sha}.html`,
      `/api/v1/expo/${world.appId}/assets/${unreleased}.png`,
      `/api/v1/expo/${randomUUID()}/assets/${file}`,
      `/api/v1/expo/assets/${unreleased}.png`,
      `/api/v1/expo/assets/${sha}.svg`,
    ]) {
      const res = await fetch(`${ctx.url}${path}`);
      expect(res.status, path).toBe(404);
      expect((await res.json()).code, path).toBe('asset_not_found');
    }
  });

  it('keep the URLs of manifests pushed before they named the app, for the files some release names', async () => {
    const file = fileOf(manifest.assets[0]!.url);
    const res = await fetch(`${ctx.url}/api/v1/expo/assets/${file}`);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    expect(headersOf(res)).toEqual(DOWNLOAD);
  });

  it('cost no query for a file the routing cache holds, one indexed lookup otherwise', async () => {
    const lookups = vi.spyOn(ctx.deps.stores.manifests, 'expoAssetReferenced');
    try {
      for (const asset of [manifest.launchAsset, ...manifest.assets]) {
        const res = await fetch(asset.url, { method: 'HEAD' });
        expect(res.status, asset.url).toBe(200);
      }
      expect(lookups).not.toHaveBeenCalled();
      const res = await fetch(`${ctx.url}/api/v1/expo/${world.appId}/assets/${'0'.repeat(64)}.png`);
      expect(res.status).toBe(404);
      expect(lookups).toHaveBeenCalledTimes(1);
    } finally {
      lookups.mockRestore();
    }
  });

  it('are served as soon as a manifest names them after a push', async () => {
    const pushed = await pushExport(world, { version: '2.0.0', platforms: ['android'] });
    const fresh = await waitFor('the manifest of the new release', async () => {
      const res = await getManifest(ctx, world.appId, expoHeaders('android', { 'eas-client-id': 'dev-2' }));
      const served = (await partsOf(res)).manifest?.json;
      return served?.id === pushed.id ? served : undefined;
    });
    for (const asset of [fresh.launchAsset, ...fresh.assets]) {
      const got = await fetch(asset.url, { method: 'HEAD' });
      expect(got.status, asset.url).toBe(200);
    }
  });
});

describe('bundle downloads', () => {
  it('carry the same download headers (they had no nosniff)', async () => {
    const { sha256 } = await world.client.apps.uploadBundle(world.appId, Buffer.from('<script>1</script>'));
    const res = await fetch(`${ctx.url}/api/v1/bundles/${sha256}`);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(headersOf(res)).toEqual(DOWNLOAD);
  });
});
