import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FakeBlobStore } from '../../../src/bundles/fake-blob-store.js';
import { type ArchiveFile, readZipFiles, sha256Hex, writeZip } from '../../../src/bundles/zip-archive.js';
import { CapacitorManifests } from '../../../src/deltas/capacitor-manifest.js';
import { codePushFolderHash } from '../../../src/deltas/codepush-package.js';
import { createDeltasService } from '../../../src/deltas/deltas.service.js';
import { base64UrlSha256 } from '../../../src/expo/expo.manifest.js';
import { createLogger } from '../../../src/platform/logger.js';
import type { NewRelease } from '../../../src/releases/releases.store.js';
import { bspatch } from '../../helpers/bspatch.js';
import { createFakeStores } from '../../helpers/fakes.js';

const file = (path: string, content: string | Buffer): ArchiveFile => {
  const bytes = Buffer.from(content);
  return { path, bytes, sha256: sha256Hex(bytes) };
};
const bundle = (n: number) =>
  `var release = ${n};\n${'console.log("the same code in every release");\n'.repeat(400)}`;

function world(
  settings: {
    bases?: number;
    minSaving?: number;
    bsdiff?: (a: Buffer, b: Buffer) => Promise<Buffer>;
    maxUnzippedBytes?: number;
    jobTimeoutMs?: number;
  } = {},
) {
  const stores = createFakeStores();
  const blobs = new FakeBlobStore();
  const service = createDeltasService(stores, {
    blobs,
    bases: settings.bases ?? 3,
    minSaving: settings.minSaving ?? 0.3,
    maxBlobBytes: 100 * 1024 * 1024,
    maxUnzippedBytes: settings.maxUnzippedBytes ?? 400 * 1024 * 1024,
    jobTimeoutMs: settings.jobTimeoutMs ?? 300_000,
    patchTimeoutMs: 120_000,
    log: createLogger('silent', 'test'),
    ...(settings.bsdiff ? { bsdiff: settings.bsdiff } : {}),
  });
  const put = async (bytes: Buffer) => (await blobs.put(Readable.from([bytes]), { maxBytes: 1e9 })).sha256;
  const push = async (bytes: Buffer, more: Partial<NewRelease> = {}) => {
    const sha256 = await put(bytes);
    return stores.transaction((tx) =>
      stores.releases.insert(tx, {
        workspaceId: 'ws',
        appId: 'app',
        version: `v${stores.releases.rows.length}`,
        channel: 'production',
        rolloutPct: 100,
        mandatory: false,
        notes: '',
        sha256,
        size: bytes.length,
        fingerprint: null,
        targetBinaryRange: null,
        ...more,
      }),
    );
  };
  const pushExpo = async (launch: Record<string, Buffer>, runtime = '1.0.0', channel = 'production') => {
    const shas = Object.fromEntries(
      await Promise.all(Object.entries(launch).map(async ([p, b]) => [p, await put(b)] as const)),
    );
    const release = await push(launch.ios ?? launch.android!, { fingerprint: runtime, channel });
    const parts = Object.entries(shas).map(([part, sha]) => ({
      part: part as 'ios' | 'android',
      body: Buffer.from(JSON.stringify({ id: release.id, launchAsset: { hash: base64UrlSha256(sha) } })),
      signature: null,
      keyId: null,
    }));
    await stores.transaction((tx) => stores.manifests.insertParts(tx, release, parts));
    return release;
  };
  return { stores, blobs, service, push, pushExpo };
}

describe('the deltas service', () => {
  it('patches each platform launch asset of an Expo release from earlier releases of its runtime version', async () => {
    const w = world();
    const old = await w.pushExpo({ ios: Buffer.from(bundle(1)), android: Buffer.from(bundle(2)) });
    await w.pushExpo({ ios: Buffer.from(bundle(3)) }, '2.0.0'); // another runtime: never a base
    await w.pushExpo({ ios: Buffer.from(bundle(4)) }, '1.0.0', 'beta'); // another channel
    const target = await w.pushExpo({ ios: Buffer.from(bundle(5)), android: Buffer.from(bundle(6)) });

    const summary = (await w.service.makeFor(target.id))!;
    expect(summary.made.map((d) => [d.kind, d.platform, d.base_update_id])).toEqual([
      ['expo-bsdiff', 'ios', old.id],
      ['expo-bsdiff', 'android', old.id],
    ]);
    const ios = summary.made[0]!;
    const patched = bspatch(Buffer.from(bundle(1)), w.blobs.blobs.get(ios.blob_sha256)!);
    expect(patched.toString()).toBe(bundle(5));
    expect(ios.full_size).toBe(Buffer.byteLength(bundle(5)));
    expect(await w.stores.deltas.deltasOf(target.id)).toHaveLength(2);
  });

  it('makes no patch from a release with the same launch asset, and at most DELTA_BASES', async () => {
    const w = world({ bases: 2 });
    const same = Buffer.from(bundle(9));
    const first = await w.pushExpo({ ios: Buffer.from(bundle(1)) });
    const second = await w.pushExpo({ ios: Buffer.from(bundle(2)) });
    const third = await w.pushExpo({ ios: Buffer.from(bundle(3)) });
    await w.pushExpo({ ios: same });
    const target = await w.pushExpo({ ios: same });
    const made = (await w.service.makeFor(target.id))!.made.map((d) => d.base_update_id);
    expect(made).toEqual([third.id, second.id]);
    expect(made).not.toContain(first.id);
  });

  it('keeps only deltas that save DELTA_MIN_SAVING, and goes on past a failed one', async () => {
    let calls = 0;
    const w = world({
      bsdiff: async (_a, b) => {
        calls += 1;
        if (calls === 1) throw new Error('bsdiff crashed');
        return calls === 2
          ? Buffer.alloc(Math.floor(b.length * 0.8))
          : Buffer.alloc(Math.floor(b.length * 0.7));
      },
    });
    const a = await w.pushExpo({ ios: Buffer.from(bundle(1)) });
    await w.pushExpo({ ios: Buffer.from(bundle(2)) });
    await w.pushExpo({ ios: Buffer.from(bundle(3)) });
    const target = await w.pushExpo({ ios: Buffer.from(bundle(4)) });
    const summary = (await w.service.makeFor(target.id))!;
    expect(summary.made.map((d) => d.base_update_id)).toEqual([a.id]);
    expect(summary.dropped).toBe(2);
  });

  it("records a zip release's CodePush folder hash, and a single-file bundle as no zip", async () => {
    const w = world();
    const files = [file('CodePush/index.android.bundle', bundle(1)), file('CodePush/assets/a.png', 'png')];
    const zipped = await w.push(await writeZip(files));
    const plain = await w.push(Buffer.from(bundle(2)));
    expect((await w.service.makeFor(zipped.id))!.package).toEqual({
      release_id: zipped.id,
      is_zip: true,
      folder_hash: codePushFolderHash(files),
      file_count: 2,
    });
    await w.service.makeFor(plain.id);
    expect(await w.stores.deltas.package(plain.id)).toMatchObject({ is_zip: false, folder_hash: null });
  });

  it('makes CodePush diff packages from earlier zip releases, skipping single-file ones', async () => {
    const w = world();
    // 20 KiB that deflate cannot shrink: most of each zip, and the same in both.
    const big = (n: number) =>
      Buffer.concat(Array.from({ length: 640 }, (_, i) => createHash('sha256').update(`${n}:${i}`).digest()));
    const base = await w.push(
      await writeZip([file('CodePush/main.jsbundle', bundle(1)), file('CodePush/big.bin', big(1))]),
    );
    await w.push(Buffer.from('not a zip'));
    const target = await w.push(
      await writeZip([file('CodePush/main.jsbundle', bundle(2)), file('CodePush/big.bin', big(1))]),
    );
    const made = (await w.service.makeFor(target.id))!.made;
    expect(made.map((d) => [d.kind, d.base_update_id])).toEqual([['codepush-diff', base.id]]);
    const diff = await readZipFiles(w.blobs.blobs.get(made[0]!.blob_sha256)!);
    expect(diff.map((f) => f.path)).toEqual(['hotcodepush.json', 'CodePush/main.jsbundle']);
  });

  it('makes a Capacitor manifest for a web build, sized by what a device on each base downloads', async () => {
    const w = world({ minSaving: 0 });
    const page = file('www/index.html', '<html></html>');
    const vendor = file('www/vendor.js', bundle(7));
    const base = await w.push(await writeZip([page, vendor, file('www/app.js', bundle(1))]));
    const target = await w.push(await writeZip([page, vendor, file('www/app.js', bundle(2))]));
    const made = (await w.service.makeFor(target.id))!.made;
    const capacitor = made.find((d) => d.kind === 'capacitor-files')!;
    expect(capacitor.base_update_id).toBe(base.id);
    const manifest = JSON.parse(w.blobs.blobs.get(capacitor.blob_sha256)!.toString()) as Array<{
      file_name: string;
      file_hash: string;
      sha256: string;
      size: number;
    }>;
    expect(manifest.map((m) => m.file_name).sort()).toEqual(['app.js.br', 'index.html', 'vendor.js.br']);
    for (const entry of manifest) expect(w.blobs.blobs.get(entry.sha256)?.length).toBe(entry.size);
    expect(capacitor.size).toBe(manifest.find((m) => m.file_name === 'app.js.br')!.size);
  });

  it("serves a web build's manifest to a device on an earlier release, which rebuilds the folder from it", async () => {
    const w = world({ minSaving: 0 });
    const page = file('www/index.html', '<html></html>');
    const vendor = file('www/vendor.js', bundle(7));
    const base = await w.push(await writeZip([page, vendor, file('www/app.js', bundle(1))]));
    const target = await w.push(await writeZip([page, vendor, file('www/app.js', bundle(2))]));
    await w.service.makeFor(target.id);
    const served = await w.stores.deltas.served('app', 500);
    let now = 0;
    const manifests = new CapacitorManifests(
      w.blobs,
      async (sha256) => ({ url: `https://cdn/${sha256}`, handOutUntil: 1_000 }),
      () => now,
    );
    expect(await manifests.manifestFor(served, target.id, 'builtin')).toBeUndefined();
    expect(await manifests.manifestFor(served, target.id, target.version)).toBeUndefined();
    expect(await manifests.manifestFor(served, base.id, base.version)).toBeUndefined();
    const manifest = (await manifests.manifestFor(served, target.id, base.version))!;
    expect(manifest.map((m) => m.file_name).sort()).toEqual(['app.js.br', 'index.html', 'vendor.js.br']);

    // The plugin keeps the files whose hash it holds and downloads the others by their URL.
    const held = new Map([page, vendor, file('www/app.js', bundle(1))].map((f) => [f.sha256, f.bytes]));
    const folder = new Map<string, Buffer>();
    let downloaded = 0;
    for (const entry of manifest) {
      let bytes = held.get(entry.file_hash);
      if (!bytes) {
        const blob = w.blobs.blobs.get(entry.download_url.slice('https://cdn/'.length))!;
        downloaded += blob.length;
        bytes = entry.file_name.endsWith('.br') ? brotliDecompressSync(blob) : blob;
      }
      expect(sha256Hex(bytes)).toBe(entry.file_hash);
      folder.set(entry.file_name.replace(/\.br$/, ''), bytes);
    }
    expect(folder.get('app.js')!.toString()).toBe(bundle(2));
    expect(downloaded).toBeLessThan(bundle(2).length);
    // Presigned URLs are renewed once past the time they may be handed out.
    now = 2_000;
    expect(await manifests.manifestFor(served, target.id, base.version)).toEqual(manifest);
  });

  it('reads no zip past BUNDLE_MAX_UNZIPPED_BYTES: such a release gets no folder hash, and such a base no delta', async () => {
    const limit = 256 * 1024;
    const w = world({ minSaving: 0, maxUnzippedBytes: limit });
    const page = file('www/index.html', '<html></html>');
    // Zeros deflate a thousandfold: a few kilobytes stored, a megabyte when inflated.
    const bomb = file('www/bomb.bin', Buffer.alloc(1024 ** 2));
    const bombBase = await w.push(await writeZip([page, bomb]));
    const fine = await w.push(await writeZip([page, file('www/app.js', bundle(1))]));
    const bombed = await w.push(await writeZip([page, bomb, file('www/app.js', bundle(2))]));
    expect((await w.service.makeFor(bombed.id))!).toMatchObject({
      package: { is_zip: true, folder_hash: null, file_count: 0 },
      made: [],
    });
    const target = await w.push(await writeZip([page, file('www/app.js', bundle(3))]));
    const made = (await w.service.makeFor(target.id))!.made;
    expect(made.length).toBeGreaterThan(0);
    expect(made.map((d) => d.base_update_id)).not.toContain(bombBase.id);
    expect(made.map((d) => d.base_update_id)).toContain(fine.id);
  });

  it('ends a job at its deadline: a patch that never finishes is dropped, and the job still answers', async () => {
    const w = world({ jobTimeoutMs: 200, bsdiff: () => new Promise<Buffer>(() => {}) });
    await w.pushExpo({ ios: Buffer.from(bundle(1)) });
    const target = await w.pushExpo({ ios: Buffer.from(bundle(2)) });
    expect(await w.service.makeFor(target.id)).toMatchObject({ made: [], dropped: 1, timedOut: true });
  });

  it('answers undefined for an unknown release', async () => {
    expect(await world().service.makeFor('00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });
});
