import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { RemotePackage } from 'code-push/script/acquisition-sdk.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ArchiveFile, sha256Hex, writeZip } from '../../../src/bundles/zip-archive.js';
import { createDeltasWorker } from '../../../workers/deltas.worker.js';
import type { Worker } from '../../../workers/worker.js';
import { clientFolderHash, installLikeClient, unzipTo } from '../../helpers/codepush-client.js';
import { fileContext } from '../../helpers/context.js';
import {
  AndroidCodePushNative,
  reactNativeStandIn,
} from '../../helpers/react-native-code-push/android-native.js';
import { loadCodePushClient } from '../../helpers/react-native-code-push/load-client.js';
import { waitFor } from '../../helpers/wait.js';
import { createKey, Device, isPackage } from '../codepush/harness.js';
import { push, uploadBundle, type Workspace, workspaceWithApp } from '../releases/fixtures.js';

/**
 * CodePush diff packages and folder hashes served to the real acquisition SDK (docs/reference/
 * delta-updates.md, "CodePush"): releases pushed through the API, diffs made by the deltas worker, and the
 * downloads installed as react-native-code-push installs them.
 */
let worker: Worker;
let work: string;
let ws: Workspace;
let key: string;
const ids: string[] = [];
const zips: Buffer[] = [];
const shas: string[] = [];

const file = (path: string, content: Buffer | string): ArchiveFile => {
  const bytes = Buffer.from(content);
  return { path, bytes, sha256: sha256Hex(bytes) };
};
// An image large enough that a diff without it saves the 30 % the worker asks for.
const image = file(
  'CodePush/assets/logo.png',
  Buffer.concat(
    Array.from({ length: 3000 }, (_, i) => Buffer.from(sha256Hex(Buffer.from(String(i))), 'hex')),
  ),
);
const releases = [
  [file('CodePush/main.jsbundle', 'console.log("v1");\n'), image, file('CodePush/old.txt', 'gone in v2')],
  [file('CodePush/main.jsbundle', 'console.log("v2");\n'), image, file('CodePush/new.txt', 'new in v2')],
];

async function download(url: string): Promise<Buffer> {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  const bytes = Buffer.from(await res.arrayBuffer());
  // The client fails a download whose length is not Content-Length (a bucket's answer sets it too).
  expect(res.headers.get('content-length')).toBe(String(bytes.length));
  return bytes;
}

const ctx = fileContext({ listen: true });
beforeAll(async () => {
  worker = createDeltasWorker(ctx.deps);
  await worker.start();
  work = await mkdtemp(join(tmpdir(), 'ota-codepush-diff-'));
  ws = await workspaceWithApp(ctx);
  key = await createKey(ctx, ws.headers, ws.appId);
  for (const [i, files] of releases.entries()) {
    const zip = await writeZip(files);
    const up = await uploadBundle(ctx, ws.headers, ws.appId, zip);
    const res = await push(ctx, ws.headers, {
      app_id: ws.appId,
      version: `1.0.${i}`,
      sha256: up.json().sha256,
    });
    expect(res.statusCode, res.body).toBe(201);
    ids.push(res.json().id);
    zips.push(zip);
    shas.push(up.json().sha256);
  }
  // The worker makes every release's deltas in turn (folder hashes, brotli files, diff packages): on a
  // machine running the whole suite this takes longer than the default wait.
  await waitFor(
    'the diff of 1.0.1',
    async () => {
      const rows = await ctx.deps.stores.deltas.deltasOf(ids[1]!);
      return rows.some((r) => r.kind === 'codepush-diff') ? rows : undefined;
    },
    { timeoutMs: 90_000 },
  );
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

/** Checks until the routing cache holds the worker's results (its invalidation reaches the API). */
async function offer(
  device: Device,
  current?: { label: string; packageHash?: string },
): Promise<RemotePackage> {
  return waitFor('an offer with the folder hash', async () => {
    const answer = await device.check(current);
    if (!isPackage(answer)) return undefined;
    const pkg = answer as RemotePackage;
    return pkg.packageHash !== shas[1] ? pkg : undefined;
  });
}

describe('CodePush diff packages through the acquisition SDK', () => {
  it("answers a zip release's folder hash as package_hash, and a new device the full package", async () => {
    const device = new Device(ctx.url!, key, 'device-new');
    const pkg = await offer(device);
    expect(pkg.label).toBe('1.0.1');
    const full = await download(pkg.downloadUrl);
    expect(full.equals(zips[1]!)).toBe(true);
    expect(pkg.packageSize).toBe(zips[1]!.length);
    const folder = join(work, 'fresh');
    await unzipTo(full, folder);
    expect(await clientFolderHash(folder)).toBe(pkg.packageHash);
  });

  it('offers a device on the previous release the diff, which installs to the folder hash', async () => {
    const v1 = join(work, 'v1');
    await unzipTo(zips[0]!, v1);
    const v1Hash = await clientFolderHash(v1);
    // The device installed 1.0.0 before its folder hash was known (told its sha256), or after.
    for (const [name, packageHash] of [
      ['sha256', shas[0]!],
      ['folder hash', v1Hash],
      ['label only', undefined],
    ] as const) {
      const device = new Device(ctx.url!, key, `device-${name.replace(' ', '-')}`);
      const pkg = await offer(device, { label: '1.0.0', ...(packageHash ? { packageHash } : {}) });
      expect(pkg.label, name).toBe('1.0.1');
      const diff = await download(pkg.downloadUrl);
      expect(pkg.packageSize, name).toBe(diff.length);
      expect(diff.length, name).toBeLessThan(zips[1]!.length / 2);
      const installed = await installLikeClient(diff, v1, join(work, `install-${name.replace(' ', '-')}`));
      expect(await clientFolderHash(installed), name).toBe(pkg.packageHash);
    }
  });

  it("counts each device's offered download once in the release's bytes_served: full or diff", async () => {
    const stats = async () => {
      await ctx.deps.stores.bytesServed.flush();
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/modules/${ids[1]}`,
        headers: ws.headers,
      });
      return res.json().stats.bytes_served as { full: number; patch: number; per_file: number };
    };
    const before = await stats();
    const fresh = new Device(ctx.url!, key, 'device-counted-full');
    const onV1 = new Device(ctx.url!, key, 'device-counted-diff');
    const full = await offer(fresh);
    const diff = await offer(onV1, { label: '1.0.0', packageHash: shas[0]! });
    // Checking again before installing offers the same download: counted once.
    await offer(fresh);
    await offer(onV1, { label: '1.0.0', packageHash: shas[0]! });
    expect(await stats()).toEqual({
      full: before.full + full.packageSize,
      patch: before.patch + diff.packageSize,
      per_file: 0,
    });
  });

  it('gives the full package to a device whose hash names no base, and nothing to one already on it', async () => {
    const stranger = new Device(ctx.url!, key, 'device-stranger');
    const pkg = await offer(stranger, { label: '1.0.0', packageHash: 'ab'.repeat(32) });
    expect(pkg.downloadUrl).not.toContain(pkg.packageHash);
    expect((await download(pkg.downloadUrl)).equals(zips[1]!)).toBe(true);

    // On 1.0.1 whichever hash it was told: up to date.
    const current = new Device(ctx.url!, key, 'device-current');
    for (const packageHash of [shas[1]!, pkg.packageHash])
      expect(await current.check({ label: '1.0.1', packageHash })).toBeNull();
  });

  it("installs the diff through react-native-code-push's own JavaScript on the Android stand-in", async () => {
    const v1 = join(work, 'v1-rn');
    await unzipTo(zips[0]!, v1);
    const native = new AndroidCodePushNative({
      folder: join(work, 'rn-app'),
      serverUrl: `${ctx.url!}/`,
      deploymentKey: key,
      clientUniqueId: 'device-rn-diff',
      appVersion: '1.0.0',
      bundleFileName: 'main.jsbundle',
    });
    await native.adopt(zips[0]!, {
      label: '1.0.0',
      appVersion: '1.0.0',
      packageHash: await clientFolderHash(v1),
      deploymentKey: key,
    });
    await native.start();
    const rn = await loadCodePushClient(
      dirname(createRequire(import.meta.url).resolve('react-native-code-push/package.json')),
      reactNativeStandIn(native),
    );
    // The worker's invalidation has reached the API (the diff is offered), as the tests above waited for.
    await offer(new Device(ctx.url!, key, 'device-rn-probe'), { label: '1.0.0', packageHash: shas[0]! });
    expect(await rn.sync({ installMode: rn.InstallMode.ON_NEXT_RESTART })).toBe(
      rn.SyncStatus.UPDATE_INSTALLED,
    );
    expect(native.downloaded).toBeLessThan(zips[1]!.length / 2);
    await native.start();
    const installed = native.runningFolder!;
    expect(await readFile(join(installed, 'CodePush', 'main.jsbundle'), 'utf8')).toBe('console.log("v2");\n');
    expect(await readFile(join(installed, 'CodePush', 'new.txt'), 'utf8')).toBe('new in v2');
    await expect(readFile(join(installed, 'CodePush', 'old.txt'))).rejects.toThrow();
  });
});
