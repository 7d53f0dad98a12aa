import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ArchiveFile, sha256Hex, writeZip } from '../../../src/bundles/zip-archive.js';
import { createDeltasWorker } from '../../../workers/deltas.worker.js';
import type { Worker } from '../../../workers/worker.js';
import { CapacitorDevice } from '../../helpers/capacitor-device.js';
import { fileContext } from '../../helpers/context.js';
import { download } from '../../helpers/downloads.js';
import { waitFor } from '../../helpers/wait.js';
import { workspaceWithApp } from '../releases/fixtures.js';
import { settle } from '../updates/seed.js';
import { capacitorRelease, check } from './harness.js';

/**
 * The per-file manifest of an update answer (docs/reference/delta-updates.md, "Capacitor"): made by the
 * deltas worker, offered to a device on an earlier release only, each file at a URL serving its bytes, and
 * counted in bytes_served as the files the device lacks.
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

const file = (path: string, content: Buffer | string): ArchiveFile => {
  const bytes = Buffer.from(content);
  return { path, bytes, sha256: sha256Hex(bytes) };
};
// A large asset both builds share, so the manifest saves the 30 % the worker asks for.
const image = file(
  'assets/logo.png',
  Buffer.concat(
    Array.from({ length: 3000 }, (_, i) => Buffer.from(sha256Hex(Buffer.from(String(i))), 'hex')),
  ),
);

describe('Capacitor per-file manifest', () => {
  it('is offered to a device on the earlier release, not to a new one, each file downloadable', async () => {
    const ws = await workspaceWithApp(ctx);
    const v1 = await capacitorRelease(ctx, ws, '1.0.0', {
      bytes: await writeZip([file('index.html', '<p>v1</p>'), image]),
    });
    const v2zip = await writeZip([file('index.html', '<p>v2</p>'), image, file('assets/new.js', 'new()')]);
    const v2 = await capacitorRelease(ctx, ws, '1.1.0', { bytes: v2zip });
    await waitFor('the manifest of 1.1.0', async () => {
      const rows = await ctx.deps.stores.deltas.deltasOf(v2.id);
      return rows.some((r) => r.kind === 'capacitor-files') ? rows : undefined;
    });
    // The routing state is loaded again once the deltas exist.
    ctx.deps.services.routing.drop(ws.appId);
    await settle(ctx);

    const fresh = await check(ctx, ws.appId, new CapacitorDevice({ deviceId: crypto.randomUUID() }));
    expect(fresh.kind).toBe('update');
    expect(fresh.raw.json()).not.toHaveProperty('manifest');

    const earlier = new CapacitorDevice({ deviceId: crypto.randomUUID() });
    earlier.versionName = v1.version;
    const outcome = await check(ctx, ws.appId, earlier);
    if (outcome.kind !== 'update') throw new Error(outcome.raw.body);
    expect(outcome).toMatchObject({ version: v2.version, checksum: v2.sha256 });
    const manifest = outcome.manifest as Array<{
      file_name: string;
      file_hash: string;
      download_url: string;
    }>;
    expect(manifest.map((e) => e.file_name.replace(/\.br$/, '')).sort()).toEqual([
      'assets/logo.png',
      'assets/new.js',
      'index.html',
    ]);
    // Each file as the plugin writes it (a `.br` one decompressed) has the listed SHA-256.
    for (const entry of manifest) {
      const got = await download(ctx, entry.download_url);
      expect(got.status).toBe(200);
      const written = entry.file_name.endsWith('.br') ? brotliDecompressSync(got.bytes) : got.bytes;
      expect(sha256Hex(written), entry.file_name).toBe(entry.file_hash);
    }
    // The zip is still valid for the device that downloads it whole.
    expect((await download(ctx, outcome.url)).bytes.equals(v2zip)).toBe(true);
    await ctx.deps.stores.bytesServed.flush();
    const stats = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/modules/${v2.id}`,
      headers: ws.headers,
    });
    const served = stats.json().stats.bytes_served as { full: number; patch: number; per_file: number };
    expect(served.full).toBe(v2zip.length);
    expect(served.patch).toBe(0);
    expect(served.per_file).toBeGreaterThan(0);
    expect(served.per_file).toBeLessThan(v2zip.length);
  }, 60_000);
});
