import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ArchiveFile, sha256Hex, writeZip } from '../../../src/bundles/zip-archive.js';
import { createDeltasWorker } from '../../../workers/deltas.worker.js';
import type { Worker } from '../../../workers/worker.js';
import { decryptBundle, decryptChecksum } from '../../helpers/capacitor-cipher.js';
import { fileContext } from '../../helpers/context.js';
import { download } from '../../helpers/downloads.js';
import { waitFor } from '../../helpers/wait.js';
import { workspaceWithApp } from '../releases/fixtures.js';
import { settle } from '../updates/seed.js';
import { capacitorRelease, fixture, PUBLIC_KEY, send, VECTORS } from './harness.js';

/**
 * Each plugin version gets the checksum it verifies and a manifest only when it applies one
 * (src/capacitor/plugin-versions.ts; API.md "Client versions"). Runs on disk and on S3: the CRC32 is read
 * from the stored blob at push.
 */
let worker: Worker;
const ctx = fileContext();
beforeAll(async () => {
  worker = createDeltasWorker(ctx.deps);
  await worker.start();
});
afterAll(async () => {
  await worker?.stop();
});

const body = (plugin: string, platform: 'android' | 'ios', more: Record<string, unknown> = {}) => ({
  ...(fixture('7.33.4', platform, 'updates.json') as Record<string, unknown>),
  device_id: crypto.randomUUID(),
  plugin_version: plugin,
  ...more,
});

const file = (path: string, content: Buffer | string): ArchiveFile => {
  const bytes = Buffer.from(content);
  return { path, bytes, sha256: sha256Hex(bytes) };
};

describe('Capacitor checksums by plugin version', () => {
  it('answers CRC32 to the plugins before SHA-256, nothing to Android 7.0.2-7.0.29, SHA-256 to the rest', async () => {
    const ws = await workspaceWithApp(ctx);
    const zip = Buffer.from(VECTORS.zip_base64, 'base64');
    const r = await capacitorRelease(ctx, ws, '1.0.1', { bytes: zip });
    const crc = (crc32(zip) >>> 0).toString(16).padStart(8, '0');
    const cases: Array<[string, 'android' | 'ios', string]> = [
      ['6.5.0', 'android', crc],
      ['6.14.27', 'ios', crc],
      ['5.4.1', 'android', crc],
      ['7.0.1', 'ios', crc],
      ['7.0.2', 'android', ''],
      ['7.0.29', 'android', ''],
      ['7.0.2', 'ios', r.sha256],
      ['7.0.30', 'android', r.sha256],
      ['6.14.28', 'android', r.sha256],
      ['8.51.14', 'ios', r.sha256],
    ];
    for (const [plugin, platform, checksum] of cases) {
      const res = await send(ctx, ws.appId, 'updates', body(plugin, platform));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json(), `${plugin} ${platform}`).toEqual({
        version: '1.0.1',
        url: expect.any(String),
        checksum,
      });
    }
  });

  it('serves plugins before 8.2, which send no key_id, a signed release: iOS with a public key installs it', async () => {
    const ws = await workspaceWithApp(ctx);
    await capacitorRelease(ctx, ws, '1.0.0');
    const sealed = await capacitorRelease(ctx, ws, '1.1.0', { encrypted: true });
    for (const plugin of ['7.33.4', '8.1.0', '6.34.0']) {
      const answer = (await send(ctx, ws.appId, 'updates', body(plugin, 'ios'))).json();
      expect(answer, plugin).toEqual({
        version: sealed.version,
        url: expect.any(String),
        checksum: VECTORS.signed_checksum,
        session_key: VECTORS.session_key,
      });
      // As the iOS plugin verifies it: the signature decrypted with its public key is the zip's SHA-256.
      const zip = decryptBundle((await download(ctx, answer.url)).bytes, PUBLIC_KEY, answer.session_key);
      expect(decryptChecksum(answer.checksum, PUBLIC_KEY)).toBe(sha256Hex(zip));
    }
    // Plugins that cannot read a hex signature (below 7.30) get the unsigned release; 8.2+ without key_id too.
    for (const plugin of ['7.29.0', '8.51.14']) {
      expect((await send(ctx, ws.appId, 'updates', body(plugin, 'ios'))).json(), plugin).toMatchObject({
        version: '1.0.0',
      });
    }
  });

  it('sends a manifest only to plugins that apply its .br files; the others download the zip', async () => {
    const ws = await workspaceWithApp(ctx);
    const image = file(
      'assets/logo.png',
      Buffer.concat(
        Array.from({ length: 3000 }, (_, i) => Buffer.from(sha256Hex(Buffer.from(String(i))), 'hex')),
      ),
    );
    const v1 = await capacitorRelease(ctx, ws, '1.0.0', {
      bytes: await writeZip([file('index.html', '<p>v1</p>'), image]),
    });
    const v2 = await capacitorRelease(ctx, ws, '1.1.0', {
      bytes: await writeZip([file('index.html', '<p>v2</p>'), image]),
    });
    await waitFor('the manifest of 1.1.0', async () => {
      const rows = await ctx.deps.stores.deltas.deltasOf(v2.id);
      return rows.some((r) => r.kind === 'capacitor-files') ? rows : undefined;
    });
    ctx.deps.services.routing.drop(ws.appId);
    await settle(ctx);
    for (const [plugin, platform] of [
      ['6.3.0', 'android'],
      ['6.14.27', 'ios'],
      ['7.0.2', 'android'],
      ['7.0.2', 'ios'],
      ['7.0.37', 'android'],
    ] as const) {
      const answer = (
        await send(ctx, ws.appId, 'updates', body(plugin, platform, { version_name: v1.version }))
      ).json();
      expect(answer, `${plugin} ${platform}`).toMatchObject({ version: v2.version });
      expect(answer, `${plugin} ${platform}`).not.toHaveProperty('manifest');
    }
    for (const plugin of ['5.10.0', '6.14.28', '7.0.38', '8.51.14']) {
      const answer = (
        await send(ctx, ws.appId, 'updates', body(plugin, 'ios', { version_name: v1.version }))
      ).json();
      expect(answer.manifest, plugin).toEqual(expect.any(Array));
    }
  }, 60_000);
});
