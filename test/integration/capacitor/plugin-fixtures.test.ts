import { readFileSync } from 'node:fs';
import { brotliDecompressSync, crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crc32Hex } from '../../../src/bundles/blob-crc32.js';
import { type ArchiveFile, sha256Hex, writeZip } from '../../../src/bundles/zip-archive.js';
import { createDeltasWorker } from '../../../workers/deltas.worker.js';
import type { Worker } from '../../../workers/worker.js';
import type { Platform } from '../../helpers/capacitor-device.js';
import { fileContext } from '../../helpers/context.js';
import { download } from '../../helpers/downloads.js';
import { waitFor } from '../../helpers/wait.js';
import { workspaceWithApp } from '../releases/fixtures.js';
import { settle } from '../updates/seed.js';
import { capacitorRelease, send } from './harness.js';

/**
 * Every plugin version of test/fixtures/capacitor/ (docs/reference/client-versions.md, "Capacitor") through
 * push → check → download → the verification that version makes → manifest or not, on disk and on S3. What
 * each version verifies is written here from its sources, apart from src/capacitor/plugin-versions.ts, so
 * the table is checked against them rather than against itself.
 */
type Verify = 'crc32' | 'sha256' | 'none';
const VERSIONS: Record<string, { android: Verify; ios: Verify; manifest: boolean }> = {
  '5.4.1': { android: 'crc32', ios: 'crc32', manifest: false },
  '5.10.0': { android: 'sha256', ios: 'sha256', manifest: true },
  '5.34.0': { android: 'sha256', ios: 'sha256', manifest: true },
  '6.3.0': { android: 'crc32', ios: 'crc32', manifest: false },
  '6.14.27': { android: 'crc32', ios: 'crc32', manifest: false },
  '6.14.28': { android: 'sha256', ios: 'sha256', manifest: true },
  '6.34.0': { android: 'sha256', ios: 'sha256', manifest: true },
  '7.0.1': { android: 'crc32', ios: 'crc32', manifest: false },
  '7.0.2': { android: 'none', ios: 'sha256', manifest: false },
  '7.0.30': { android: 'sha256', ios: 'sha256', manifest: false },
  '7.0.38': { android: 'sha256', ios: 'sha256', manifest: true },
  '7.33.4': { android: 'sha256', ios: 'sha256', manifest: true },
  '7.34.0': { android: 'sha256', ios: 'sha256', manifest: true },
  '8.2.0': { android: 'sha256', ios: 'sha256', manifest: true },
  '8.42.0': { android: 'sha256', ios: 'sha256', manifest: true },
  '8.51.14': { android: 'sha256', ios: 'sha256', manifest: true },
};

const FIXTURES = new URL('../../fixtures/capacitor/', import.meta.url);
const read = (version: string, platform: Platform, name: string) =>
  JSON.parse(readFileSync(new URL(`plugin-${version}/${platform}/${name}`, FIXTURES), 'utf8'));

let worker: Worker;
const ctx = fileContext();
beforeAll(async () => {
  worker = createDeltasWorker(ctx.deps);
  await worker.start();
});
afterAll(async () => {
  await worker?.stop();
});

const file = (path: string, content: Buffer | string): ArchiveFile => {
  const bytes = Buffer.from(content);
  return { path, bytes, sha256: sha256Hex(bytes) };
};

/** The plugin's check of a downloaded zip against the answer's checksum (no public key configured). */
function verifies(kind: Verify, checksum: string, zip: Buffer): boolean {
  if (kind === 'crc32') return checksum === crc32Hex(crc32(zip));
  // Android 7.0.2-7.0.29 computes nothing and compares "" with the answer's checksum.
  if (kind === 'none') return checksum === '';
  return checksum === sha256Hex(zip);
}

describe('Capacitor plugin fixtures', () => {
  it('each version is served what it verifies and applies, from push to install', async () => {
    const ws = await workspaceWithApp(ctx);
    const image = file(
      'assets/logo.png',
      Buffer.concat(
        Array.from({ length: 3000 }, (_, i) => Buffer.from(sha256Hex(Buffer.from(String(i))), 'hex')),
      ),
    );
    const v1 = await capacitorRelease(ctx, ws, '1.0.1', {
      bytes: await writeZip([file('index.html', '<p>v1</p>'), image]),
    });
    const zip2 = await writeZip([file('index.html', '<p>v2</p>'), image, file('assets/app.js', 'run()')]);
    const v2 = await capacitorRelease(ctx, ws, '1.1.0', { bytes: zip2 });
    await waitFor('the manifest of 1.1.0', async () => {
      const rows = await ctx.deps.stores.deltas.deltasOf(v2.id);
      return rows.some((r) => r.kind === 'capacitor-files') ? rows : undefined;
    });
    ctx.deps.services.routing.drop(ws.appId);
    await settle(ctx);

    for (const [version, expected] of Object.entries(VERSIONS)) {
      for (const platform of ['android', 'ios'] as const) {
        const label = `${version} ${platform}`;
        const kind = expected[platform];
        const body = { ...read(version, platform, 'updates.json'), device_id: crypto.randomUUID() };
        expect(body.plugin_version, label).toBe(version);

        // First start: the zip, verified as this version verifies it.
        const fresh = await send(ctx, ws.appId, 'updates', body);
        expect(fresh.statusCode, fresh.body).toBe(200);
        const answer = fresh.json();
        expect(answer, label).toMatchObject({ version: v2.version, url: expect.any(String) });
        expect(answer, label).not.toHaveProperty('manifest');
        const got = (await download(ctx, answer.url)).bytes;
        expect(got.equals(zip2), label).toBe(true);
        expect(verifies(kind, answer.checksum, got), `${label}: ${kind} ${answer.checksum}`).toBe(true);

        // On 1.0.1: a manifest only for versions that apply its .br files, each file as the plugin writes it.
        const update = (await send(ctx, ws.appId, 'updates', { ...body, version_name: v1.version })).json();
        expect(update, label).toMatchObject({ version: v2.version });
        expect(verifies(kind, update.checksum, zip2), label).toBe(true);
        if (!expected.manifest) {
          expect(update, label).not.toHaveProperty('manifest');
        } else {
          const manifest = update.manifest as Array<{
            file_name: string;
            file_hash: string;
            download_url: string;
          }>;
          expect(manifest.length, label).toBeGreaterThan(0);
          for (const entry of manifest) {
            const bytes = (await download(ctx, entry.download_url)).bytes;
            const written = entry.file_name.endsWith('.br') ? brotliDecompressSync(bytes) : bytes;
            expect(sha256Hex(written), `${label} ${entry.file_name}`).toBe(entry.file_hash);
          }
        }

        // Its statistics: one object per request before 8.42, a batch from 8.42 on.
        const stats = read(version, platform, 'stats.json');
        expect(Array.isArray(stats), label).toBe(version === '8.42.0' || version === '8.51.14');
        const res = await send(ctx, ws.appId, 'stats', stats);
        expect(res.statusCode, `${label}: ${res.body}`).toBe(200);
      }
    }
  }, 120_000);
});
