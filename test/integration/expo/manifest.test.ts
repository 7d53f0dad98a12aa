import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileContext } from '../../helpers/context.js';
import { testBlobStore } from '../../helpers/test-buckets.js';
import {
  checkAssets,
  type ExpoWorld,
  expoHeaders,
  expoWorld,
  FIXTURE,
  getManifest,
  partsOf,
  pushExport,
} from './expo-world.js';

/** The manifest endpoint's wire format, read with Expo's own multipart parser. */
let world: ExpoWorld;
let releaseId: string;
const metadata = JSON.parse(readFileSync(join(FIXTURE, 'metadata.json'), 'utf8'));

const ctx = fileContext({ listen: true });
beforeAll(async () => {
  world = await expoWorld(ctx, 'team');
  releaseId = (await pushExport(world, { version: '1.0.0' })).id;
}, 120_000);

const md5Of = (path: string) =>
  createHash('md5')
    .update(readFileSync(join(FIXTURE, path)))
    .digest('hex');

describe('Expo Updates v1 manifest', () => {
  for (const platform of ['ios', 'android'] as const) {
    it(`serves the ${platform} manifest as multipart, with its own launch asset and every asset's bytes`, async () => {
      const res = await getManifest(ctx, world.appId, expoHeaders(platform, { 'eas-client-id': 'dev-1' }));
      expect(res.headers['expo-protocol-version']).toBe('1');
      expect(res.headers['expo-sfv-version']).toBe('0');
      expect(res.headers['cache-control']).toBe('private, max-age=0');
      const { manifest, directive } = await partsOf(res);
      expect(directive).toBeUndefined();
      const m = manifest!.json;
      expect(m).toMatchObject({ id: releaseId, runtimeVersion: '1.0.0', metadata: {} });
      expect(new Date(m.createdAt).toISOString()).toBe(m.createdAt);
      expect(m.extra).toEqual({
        expoClient: JSON.parse(readFileSync(join(FIXTURE, 'expoConfig.json'), 'utf8')),
      });
      const files = metadata.fileMetadata[platform];
      // The launch asset's key is the md5 in the bundle's file name; no fileExtension (the spec says omit).
      expect(m.launchAsset.key).toBe(md5Of(files.bundle));
      expect(files.bundle).toContain(m.launchAsset.key);
      expect(m.launchAsset.contentType).toBe('application/javascript');
      expect(m.launchAsset.fileExtension).toBeUndefined();
      expect(m.assets).toHaveLength(files.assets.length);
      expect(m.assets[0]).toMatchObject({
        key: md5Of(files.assets[0].path),
        contentType: 'image/png',
        fileExtension: '.png',
      });
      expect(m.launchAsset.hash).not.toMatch(/[=+/]/);
      expect(await checkAssets(m)).toBe(1 + files.assets.length);
    });
  }

  it('gives each platform its own bundle', async () => {
    const ios = await partsOf(await getManifest(ctx, world.appId, expoHeaders('ios')));
    const android = await partsOf(await getManifest(ctx, world.appId, expoHeaders('android')));
    expect(ios.manifest!.json.launchAsset.hash).not.toBe(android.manifest!.json.launchAsset.hash);
    expect(ios.manifest!.json.id).toBe(android.manifest!.json.id);
  });

  it('answers the JSON manifest to a client that takes only JSON, with the negotiated type', async () => {
    const multipart = await partsOf(await getManifest(ctx, world.appId, expoHeaders('ios')));
    for (const [accept, type] of [
      ['application/expo+json', 'application/expo+json'],
      ['application/json', 'application/json'],
      ['application/expo+json;q=0.5, application/json', 'application/json'],
      ['application/*', 'application/expo+json'],
    ]) {
      const res = await getManifest(ctx, world.appId, expoHeaders('ios', { accept: accept! }));
      expect(res.status, accept).toBe(200);
      expect(res.headers['content-type']).toBe(type);
      expect(res.headers['expo-protocol-version']).toBe('1');
      // The very bytes of the multipart answer's manifest part.
      expect(res.body.toString('utf8')).toBe(multipart.manifest!.body);
    }
  });

  it('answers multipart to a client that sends no accept or */*', async () => {
    for (const accept of [undefined, '*/*', 'multipart/*;q=0.1, application/json']) {
      const headers = expoHeaders('android');
      if (accept === undefined) delete headers.accept;
      else headers.accept = accept;
      const res = await getManifest(ctx, world.appId, headers);
      expect(res.headers['content-type'], accept).toMatch(/^multipart\/mixed; boundary=/);
    }
  });

  it('refuses what it cannot meet: 406 for an accept, a protocol version or a signature algorithm', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ accept: 'text/html' }, 'not_acceptable'],
      [{ accept: 'application/json;q=0, multipart/mixed;q=0' }, 'not_acceptable'],
      [{ 'expo-protocol-version': '0' }, 'unsupported_protocol_version'],
      [{ 'expo-protocol-version': '2' }, 'unsupported_protocol_version'],
      [{ 'expo-expect-signature': 'sig, keyid="main", alg="ecdsa-p256"' }, 'unsupported_signature_algorithm'],
    ];
    for (const [extra, code] of cases) {
      const res = await getManifest(ctx, world.appId, expoHeaders('ios', extra));
      expect(res.status, JSON.stringify(extra)).toBe(406);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(res.body.toString()).code).toBe(code);
    }
    const none = expoHeaders('ios');
    delete none['expo-protocol-version'];
    expect((await getManifest(ctx, world.appId, none)).status).toBe(406);
  });

  it('answers 400 for another platform or a malformed header, 404 for an unknown app', async () => {
    const malformed: Array<Record<string, string>> = [
      { 'expo-platform': 'web' },
      { 'expo-runtime-version': '' },
      { 'expo-channel-name': 'Beta' },
      { 'eas-client-id': 'bad id with spaces' },
      { 'expo-current-update-id': 'not-a-uuid' },
      { 'expo-recent-failed-update-ids': '"unterminated' },
      { 'expo-expect-signature': '(((' },
    ];
    for (const extra of malformed) {
      const res = await getManifest(ctx, world.appId, expoHeaders('ios', extra));
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    const platformless = expoHeaders('ios');
    delete platformless['expo-platform'];
    expect((await getManifest(ctx, world.appId, platformless)).status).toBe(400);
    const unknown = await getManifest(ctx, '00000000-0000-4000-8000-000000000000', expoHeaders('ios'));
    expect(unknown.status).toBe(404);
  });

  it('answers 204 with the protocol headers when there is nothing to do', async () => {
    const cases: Array<Record<string, string>> = [
      { 'expo-runtime-version': '9.9.9' },
      { 'expo-current-update-id': releaseId.toUpperCase() },
      { 'expo-channel-name': 'beta' },
    ];
    for (const extra of cases) {
      const res = await getManifest(ctx, world.appId, expoHeaders('ios', extra));
      expect(res.status, JSON.stringify(extra)).toBe(204);
      expect(res.body.length).toBe(0);
      expect(res.headers['expo-protocol-version']).toBe('1');
      expect(res.headers['content-type']).toBeUndefined();
    }
  });

  it('serves assets immutably, with ranges and validators, and 404 for unknown ones', async () => {
    const { manifest } = await partsOf(await getManifest(ctx, world.appId, expoHeaders('ios')));
    const url = manifest!.json.launchAsset.url;
    const full = await fetch(url);
    await full.arrayBuffer();
    const etag = full.headers.get('etag')!;
    // The API's validator is the sha256; a bucket's is its own (S3: an MD5).
    if (testBlobStore() === 'disk') expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect((await fetch(url, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const part = await fetch(url, { headers: { range: 'bytes=0-9' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer())).toHaveLength(10);
    const missing = await fetch(`${ctx.url}/api/v1/expo/assets/${'0'.repeat(64)}.png`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).code).toBe('asset_not_found');
  });

  it('keeps Expo releases out of /updates/check, which serves bundle releases only', async () => {
    const res = await world.client.devices.check({
      app_id: world.appId,
      device_id: 'sdk-1',
      fingerprint: '1.0.0',
    });
    expect(res.update).toBeNull();
  });
});
