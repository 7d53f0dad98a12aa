import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/api/app.js';
import { loadConfig } from '../../../src/config/config.js';
import { createContainer } from '../../../src/container/container.js';
import type { Container } from '../../../src/container/container.types.js';
import type { App } from '../../../src/http/types.js';
import { fileContext, freePort, type TestContext } from '../../helpers/context.js';
import { checkAssets, expoHeaders, expoWorld, getManifest, partsOf, pushExport } from '../expo/expo-world.js';
import { push, sha256Hex, uploadBundle, workspaceWithApp } from '../releases/fixtures.js';

/**
 * Two API copies as on two hosts: one database, one bucket, a BLOB_DIR each. Each serves what was uploaded
 * and pushed through the other (bundles and Expo assets), and neither keeps a byte on its own disk.
 */
let b: { deps: Container; app: App; url: string; blobDir: string };

const a = fileContext({ listen: true, env: { BLOB_STORE: 's3' } });
beforeAll(async () => {
  const blobDir = await mkdtemp(join(tmpdir(), 'ota-host-b-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const deps = createContainer(
    loadConfig({ ...a.env, BLOB_DIR: blobDir, PORT: String(port), PUBLIC_URL: url }),
    {
      name: 'host-b',
      poolSize: 3,
    },
  );
  const app = await buildApp(deps);
  await app.listen({ host: '127.0.0.1', port });
  b = { deps, app, url, blobDir };
});
afterAll(async () => {
  await b?.app.close();
  await b?.deps.close();
  if (b) await rm(b.blobDir, { recursive: true, force: true });
});

/** The second host as a test context, for the helpers that take one. */
const hostB = () => ({ ...a, app: b.app, deps: b.deps, url: b.url, config: b.deps.config }) as TestContext;

async function checkOn(url: string, appId: string) {
  const res = await fetch(`${url}/api/v1/updates/check`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ app_id: appId, device_id: `device-${randomBytes(3).toString('hex')}` }),
  });
  return (await res.json()).update as { url: string; sha256: string } | null;
}

describe('API copies on two hosts sharing one bucket', () => {
  it('serve each other’s releases from the bucket, with no byte on either disk', async () => {
    for (const [from, to] of [
      [a, hostB()],
      [hostB(), a],
    ] as const) {
      const ws = await workspaceWithApp(from);
      const bytes = randomBytes(80_000);
      expect((await uploadBundle(from, ws.headers, ws.appId, bytes)).statusCode).toBe(201);
      const pushed = await push(from, ws.headers, {
        app_id: ws.appId,
        version: '1.0.0',
        sha256: sha256Hex(bytes),
      });
      expect(pushed.statusCode, pushed.body).toBe(201);
      const update = await checkOn(to.url!, ws.appId);
      expect(update?.sha256).toBe(sha256Hex(bytes));
      // A device fetches the bytes from the bucket, not from either API.
      expect(update!.url.startsWith(a.url!) || update!.url.startsWith(b.url)).toBe(false);
      const fetched = await fetch(update!.url);
      expect(Buffer.from(await fetched.arrayBuffer()).equals(bytes)).toBe(true);
      // An old client holding the API's URL is sent there too.
      const old = await fetch(`${to.url}/api/v1/bundles/${sha256Hex(bytes)}`);
      expect(old.redirected).toBe(true);
      expect(Buffer.from(await old.arrayBuffer()).equals(bytes)).toBe(true);
    }
    expect(await readdir(a.config.bundles.blobDir)).toEqual([]);
    expect(await readdir(b.blobDir)).toEqual([]);
  });

  it('serve the Expo assets of a release pushed through the other host', async () => {
    const world = await expoWorld(a, 'team');
    await pushExport(world, { platforms: ['ios', 'android'] });
    for (const platform of ['ios', 'android'] as const) {
      const res = await getManifest(hostB(), world.appId, expoHeaders(platform));
      expect(res.status).toBe(200);
      const { manifest } = await partsOf(res);
      for (const asset of manifest!.json.assets)
        expect(asset.url.startsWith(a.url!) || asset.url.startsWith(b.url)).toBe(false);
      // The launch asset's URL is the service's own: it answers patches, and 302 for the full bytes.
      const launch = new URL(manifest!.json.launchAsset.url);
      expect(launch.pathname.startsWith(`/api/v1/expo/${world.appId}/assets/`)).toBe(true);
      expect(await checkAssets(manifest!.json)).toBeGreaterThan(1);
    }
  });
});
