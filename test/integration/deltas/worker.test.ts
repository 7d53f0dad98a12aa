import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ArchiveFile, readZipFiles, sha256Hex, writeZip } from '../../../src/bundles/zip-archive.js';
import { codePushFolderHash } from '../../../src/deltas/codepush-package.js';
import type { DeltaRow } from '../../../src/deltas/deltas.store.js';
import { launchAssetOf } from '../../../src/deltas/launch-asset.js';
import { createDeltasWorker } from '../../../workers/deltas.worker.js';
import type { Worker } from '../../../workers/worker.js';
import { bspatch } from '../../helpers/bspatch.js';
import { fileContext } from '../../helpers/context.js';
import { waitFor } from '../../helpers/wait.js';
import { bundle, push, uploadBundle, type Workspace, workspaceWithApp } from '../releases/fixtures.js';

/** The deltas worker on the real services: pushes through the API, deltas in Postgres and the blob store. */
const EXPORT = join(import.meta.dirname, '../../fixtures/expo-export');

let worker: Worker;
const ctx = fileContext();
beforeAll(async () => {
  worker = createDeltasWorker(ctx.deps);
  await worker.start();
});
afterAll(async () => {
  await worker?.stop();
});

async function upload(ws: Workspace, bytes: Buffer): Promise<string> {
  const res = await uploadBundle(ctx, ws.headers, ws.appId, bytes);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().sha256;
}

async function pushExpo(ws: Workspace, version: string, launchAsset: Buffer): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/expo/releases',
    headers: ws.headers,
    payload: {
      app_id: ws.appId,
      version,
      runtime_version: '1.0.0',
      platforms: { ios: { bundle: await upload(ws, launchAsset), assets: [] } },
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

const deltasOf = (releaseId: string, count: number) =>
  waitFor(`${count} deltas of ${releaseId}`, async () => {
    const rows = await ctx.deps.stores.deltas.deltasOf(releaseId);
    return rows.length >= count ? rows : undefined;
  });

async function blob(row: DeltaRow): Promise<Buffer> {
  expect(await ctx.deps.blobs.has(row.blob_sha256)).toBe(true);
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.deps.blobs.createReadStream(row.blob_sha256)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('the deltas worker', () => {
  it("patches an Expo release's launch asset from the one before, and the patch gives the manifest hash", async () => {
    const ws = await workspaceWithApp(ctx);
    const metadata = JSON.parse(await readFile(join(EXPORT, 'metadata.json'), 'utf8'));
    const base = await readFile(join(EXPORT, metadata.fileMetadata.ios.bundle));
    const target = Buffer.from(base.toString('utf8').replace('OTA fixture', 'OTA fixture, second release'));
    const first = await pushExpo(ws, '1.0.0', base);
    const second = await pushExpo(ws, '1.0.1', target);

    const [row] = await deltasOf(second, 1);
    expect(row).toMatchObject({
      kind: 'expo-bsdiff',
      platform: 'ios',
      base_update_id: first,
      base_release_id: first,
      full_size: target.length,
    });
    const patch = await blob(row!);
    expect(patch.length).toBe(row!.size);
    expect(patch.length / target.length).toBeLessThanOrEqual(0.1);
    const manifest = (await ctx.deps.stores.manifests.parts(second)).find((p) => p.part === 'ios')!;
    expect(sha256Hex(bspatch(base, patch))).toBe(launchAssetOf(manifest.body));
    // The first release had nothing before it: no deltas, and its job is done.
    expect(await ctx.deps.stores.deltas.deltasOf(first)).toEqual([]);
  });

  it("records a zip release's folder hash and a CodePush diff package from the release before", async () => {
    const ws = await workspaceWithApp(ctx);
    const file = (path: string, content: Buffer | string): ArchiveFile => {
      const bytes = Buffer.from(content);
      return { path, bytes, sha256: sha256Hex(bytes) };
    };
    const assets = file(
      'CodePush/assets/big.bin',
      Buffer.concat(
        Array.from({ length: 2000 }, (_, i) => Buffer.from(sha256Hex(Buffer.from(String(i))), 'hex')),
      ),
    );
    const v1 = [file('CodePush/index.android.bundle', 'var a = 1;\n'), assets];
    const v2 = [file('CodePush/index.android.bundle', 'var a = 2;\n'), assets];
    const ids: string[] = [];
    for (const [i, files] of [v1, v2].entries()) {
      const sha256 = await upload(ws, await writeZip(files));
      const res = await push(ctx, ws.headers, { app_id: ws.appId, version: `2.0.${i}`, sha256 });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id);
    }
    // A single-file bundle is read too, and keeps its sha256.
    const plainSha = await bundle(ctx, ws.headers, ws.appId);
    const plain = await push(ctx, ws.headers, {
      app_id: ws.appId,
      version: '3.0.0',
      sha256: plainSha,
      channel: 'production',
    });

    const [row] = await deltasOf(ids[1]!, 1);
    expect(row).toMatchObject({ kind: 'codepush-diff', platform: 'any', base_update_id: ids[0] });
    const diff = await readZipFiles(await blob(row!));
    expect(diff.map((f) => f.path)).toEqual(['hotcodepush.json', 'CodePush/index.android.bundle']);
    expect(await ctx.deps.stores.deltas.package(ids[1]!)).toEqual({
      release_id: ids[1],
      is_zip: true,
      folder_hash: codePushFolderHash(v2),
      file_count: 2,
    });
    const plainPackage = await waitFor('the single-file release read', () =>
      ctx.deps.stores.deltas.package(plain.json().id),
    );
    expect(plainPackage).toMatchObject({ is_zip: false, folder_hash: null });
  });
});
