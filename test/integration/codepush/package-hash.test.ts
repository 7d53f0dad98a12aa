import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RemotePackage } from 'code-push/script/acquisition-sdk.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ArchiveFile, sha256Hex, writeZip } from '../../../src/bundles/zip-archive.js';
import { clientFolderHash, unzipTo } from '../../helpers/codepush-client.js';
import { fileContext } from '../../helpers/context.js';
import { push, rollback, uploadBundle, type Workspace, workspaceWithApp } from '../releases/fixtures.js';
import { settle } from '../updates/seed.js';
import { createKey, Device, isPackage } from './harness.js';

/**
 * A zip release's `package_hash` is CodePush's folder hash from the first answer after its push, with no
 * deltas worker running (this file starts none): the client compares its folder hash, and the signature's
 * `contentHash`, with the hash it was told, and remembers failed packages by it (isFailedUpdate), so the
 * hash of a release never changes.
 */
const ctx = fileContext({ listen: true });
let work: string;
let ws: Workspace;
let key: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ota-codepush-hash-'));
  ws = await workspaceWithApp(ctx);
  key = await createKey(ctx, ws.headers, ws.appId);
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

const file = (path: string, text: string): ArchiveFile => {
  const bytes = Buffer.from(text);
  return { path, bytes, sha256: sha256Hex(bytes) };
};

async function pushZip(version: string, zip: Buffer): Promise<{ id: string; sha256: string }> {
  const up = await uploadBundle(ctx, ws.headers, ws.appId, zip);
  expect(up.statusCode, up.body).toBe(201);
  const res = await push(ctx, ws.headers, { app_id: ws.appId, version, sha256: up.json().sha256 });
  expect(res.statusCode, res.body).toBe(201);
  await settle(ctx);
  return res.json();
}

/** What the client computes of the package it downloaded from the offer (CodePushUpdateUtils). */
async function installedHash(pkg: RemotePackage, name: string): Promise<string> {
  const res = await fetch(pkg.downloadUrl);
  expect(res.status).toBe(200);
  const folder = join(work, name);
  await unzipTo(Buffer.from(await res.arrayBuffer()), folder);
  return clientFolderHash(folder);
}

async function offer(
  device: Device,
  current?: { label: string; packageHash: string },
): Promise<RemotePackage> {
  const answer = await device.check(current);
  expect(isPackage(answer), JSON.stringify(answer)).toBe(true);
  return answer as RemotePackage;
}

describe('package_hash with no deltas worker', () => {
  it('is the folder hash at the first check after each of five pushes', async () => {
    let running: { label: string; packageHash: string } | undefined;
    for (let i = 1; i <= 5; i++) {
      const zip = await writeZip([
        file('CodePush/index.android.bundle', `console.log(${i});`),
        file('CodePush/assets/logo.txt', 'logo'),
      ]);
      const pushed = await pushZip(`1.0.${i}`, zip);
      const pkg = await offer(new Device(ctx.url!, key, `device-${i}`, '1.0.0'), running);
      expect(pkg.label).toBe(`1.0.${i}`);
      expect(pkg.packageHash).not.toBe(pushed.sha256);
      expect(pkg.packageHash).toBe(await installedHash(pkg, `push-${i}`));
      running = { label: pkg.label, packageHash: pkg.packageHash };
    }
  });

  it("keeps a release's hash through its rollback: the same bytes pushed again are the package the client failed", async () => {
    const zip = await writeZip([file('CodePush/index.android.bundle', 'throw new Error("crash");')]);
    const bad = await pushZip('2.0.0', zip);
    const device = new Device(ctx.url!, key, 'device-failed', '1.0.0');
    const failed = await offer(device);
    expect(failed.label).toBe('2.0.0');
    const rolled = await rollback(ctx, ws.headers, bad.id);
    expect(rolled.statusCode, rolled.body).toBe(200);
    await settle(ctx);
    // The device rolled back to what it ran; the service now offers the release before (nothing new).
    expect((await offer(device)).label).not.toBe('2.0.0');
    // Pushed again under another label, the same bytes are the same package: the client's memory of the
    // failed hash (isFailedUpdate) recognises it.
    await pushZip('2.0.1', zip);
    const again = await offer(device);
    expect(again.label).toBe('2.0.1');
    expect(again.packageHash).toBe(failed.packageHash);
    expect(again.packageHash).toBe(await installedHash(again, 'again'));
  });
});
