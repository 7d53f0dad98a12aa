import { createHash } from 'node:crypto';
import type { RemotePackage } from 'code-push/script/acquisition-sdk.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { bucketOf } from '../../../src/updates/bucket.js';
import { fileContext } from '../../helpers/context.js';
import { testBlobStore } from '../../helpers/test-buckets.js';
import {
  push,
  release,
  rollback,
  setPlan,
  uploadBundle,
  type Workspace,
  workspaceWithApp,
} from '../releases/fixtures.js';
import { settle } from '../updates/seed.js';
import { createKey, Device, isPackage, offeredLabel } from './harness.js';

/**
 * The real acquisition SDK of the `code-push` package (what react-native-code-push runs) against a
 * listening service: update checks through deployment keys.
 */
let url: string;
const ctx = fileContext({ listen: true });
beforeAll(async () => {
  url = ctx.url!;
});

async function releaseBytes(ws: Workspace, version: string, bytes: Buffer, extra: object = {}) {
  const up = await uploadBundle(ctx, ws.headers, ws.appId, bytes);
  expect(up.statusCode, up.body).toBe(201);
  const res = await push(ctx, ws.headers, { app_id: ws.appId, version, sha256: up.json().sha256, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  await settle(ctx);
  return res.json() as { id: string; sha256: string; size: number };
}

async function pushed(ws: Workspace, version: string, extra: object = {}) {
  const r = await release(ctx, ws, { version, ...extra });
  await settle(ctx);
  return r as { id: string; sha256: string };
}

describe('CodePush update check through the acquisition SDK', () => {
  it('offers the newest release with its package details, and the bytes download from download_url', async () => {
    const ws = await workspaceWithApp(ctx);
    const key = await createKey(ctx, ws.headers, ws.appId);
    await pushed(ws, 'v1');
    const bytes = Buffer.from(`// bundle zip ${'x'.repeat(3000)}`);
    const v2 = await releaseBytes(ws, 'v2', bytes, { notes: 'Fixes the login screen', mandatory: true });

    const device = new Device(url, key, 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F', '1.4.0');
    const answer = await device.check();
    expect(isPackage(answer)).toBe(true);
    const pkg = answer as RemotePackage;
    expect(pkg).toEqual({
      deploymentKey: key,
      description: 'Fixes the login screen',
      label: 'v2',
      // The device's own binary version: the client keeps the package only while it runs that binary.
      appVersion: '1.4.0',
      isMandatory: true,
      packageHash: createHash('sha256').update(bytes).digest('hex'),
      packageSize: bytes.length,
      // The API's own URL on the disk store; the bucket's (presigned) with BLOB_STORE=s3.
      downloadUrl:
        testBlobStore() === 'disk'
          ? `${url}/api/v1/bundles/${v2.sha256}`
          : expect.stringContaining(`bundles/${v2.sha256}?`),
    });
    const download = await fetch(pkg.downloadUrl);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('answers up to date to a device running the newest release, by label or by package hash', async () => {
    const ws = await workspaceWithApp(ctx);
    const key = await createKey(ctx, ws.headers, ws.appId);
    await pushed(ws, 'v1');
    const v2 = await pushed(ws, 'v2');
    const device = new Device(url, key, 'android-0123456789abcdef');
    expect(await offeredLabel(device, { label: 'v2', packageHash: v2.sha256 })).toBeNull();
    expect(await offeredLabel(device, { packageHash: v2.sha256 })).toBeNull();
    expect(await offeredLabel(device, { label: 'v1' })).toBe('v2');
  });

  it('an app without releases, or a channel without any, answers no update', async () => {
    const ws = await workspaceWithApp(ctx);
    const key = await createKey(ctx, ws.headers, ws.appId);
    expect(await offeredLabel(new Device(url, key, 'd1'))).toBeNull();
  });

  it('matches the binary version against target_binary_range, falling through to earlier releases', async () => {
    const ws = await workspaceWithApp(ctx);
    const key = await createKey(ctx, ws.headers, ws.appId);
    await pushed(ws, 'base');
    await pushed(ws, 'for-1.x', { target_binary_range: '1.x' });
    await pushed(ws, 'for-2', { target_binary_range: '^2.0.0' });
    expect(await offeredLabel(new Device(url, key, 'd', '2.3.0'))).toBe('for-2');
    expect(await offeredLabel(new Device(url, key, 'd', '1.7'))).toBe('for-1.x');
    expect(await offeredLabel(new Device(url, key, 'd', '3.0.0'))).toBe('base');
    // The package carries the device's version exactly as it sent it ("1.7", not "1.7.0").
    const pkg = (await new Device(url, key, 'd', '1.7').check()) as RemotePackage;
    expect(pkg.appVersion).toBe('1.7');
  });

  it('reads app_version as code-push-server does: "1" and "1.0" are 1.0.0, four parts are a 400 problem', async () => {
    const ws = await workspaceWithApp(ctx);
    const key = await createKey(ctx, ws.headers, ws.appId);
    await pushed(ws, 'for-1.0.0', { target_binary_range: '1.0.0' });
    for (const appVersion of ['1', '1.0', '1.0.0'])
      expect(await offeredLabel(new Device(url, key, 'd', appVersion)), appVersion).toBe('for-1.0.0');
    expect(await new Device(url, key, 'd', '1.0.1').check()).toBeNull();
    // The SDK reports the 400 as an error; the answer is problem+json with a stable code.
    await expect(new Device(url, key, 'd', '1.0.0.0').check()).rejects.toThrow();
    const res = await fetch(
      `${url}/v0.1/public/codepush/update_check?${new URLSearchParams({
        deployment_key: key,
        app_version: '1.0.0.0',
        client_unique_id: 'd',
      })}`,
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect((await res.json()).code).toBe('invalid_app_version');
  });

  it('tells a device too old for the newest release to update from the store', async () => {
    const ws = await workspaceWithApp(ctx);
    const key = await createKey(ctx, ws.headers, ws.appId);
    await pushed(ws, 'needs-2', { target_binary_range: '^2.0.0' });
    expect(await new Device(url, key, 'd', '1.0.0').check()).toEqual({
      updateAppVersion: true,
      appVersion: '^2.0.0',
    });
    // A device newer than the range is not told to update: nothing for it.
    expect(await new Device(url, key, 'd', '5.0.0').check()).toBeNull();
  });

  it('stages a rollout by the published bucket of client_unique_id, and a rollback hands the previous release back', async () => {
    const ws = await workspaceWithApp(ctx);
    await setPlan(ctx, ws.workspaceId, 'pro');
    const key = await createKey(ctx, ws.headers, ws.appId);
    await pushed(ws, 'stable');
    const staged = await pushed(ws, 'staged', { rollout_pct: 30 });
    const devices = Array.from({ length: 80 }, (_, i) => `device-${i}`);
    let inside = 0;
    for (const id of devices) {
      const expected = bucketOf(staged.id, id) < 30 ? 'staged' : 'stable';
      if (expected === 'staged') inside += 1;
      expect(await offeredLabel(new Device(url, key, id)), id).toBe(expected);
    }
    expect(inside).toBeGreaterThan(5);
    expect(inside).toBeLessThan(50);

    const res = await rollback(ctx, ws.headers, staged.id);
    expect(res.statusCode, res.body).toBe(200);
    await settle(ctx);
    for (const id of devices.slice(0, 20)) {
      expect(await offeredLabel(new Device(url, key, id), { label: 'staged' })).toBe('stable');
    }
  });

  it('marks an update mandatory when the device would skip a mandatory release on the way', async () => {
    const ws = await workspaceWithApp(ctx);
    const key = await createKey(ctx, ws.headers, ws.appId);
    await pushed(ws, 'v1');
    await pushed(ws, 'v2', { mandatory: true });
    await pushed(ws, 'v3');
    const offer = async (label: string) =>
      ((await new Device(url, key, 'phone').check({ label })) as RemotePackage).isMandatory;
    expect(await offer('v1')).toBe(true);
    expect(await offer('v2')).toBe(false);
  });

  it('serves the channel the key names', async () => {
    const ws = await workspaceWithApp(ctx);
    await setPlan(ctx, ws.workspaceId, 'pro');
    const production = await createKey(ctx, ws.headers, ws.appId);
    const beta = await createKey(ctx, ws.headers, ws.appId, 'beta');
    await pushed(ws, 'prod-1');
    await pushed(ws, 'beta-1', { channel: 'beta' });
    expect(await offeredLabel(new Device(url, production, 'd'))).toBe('prod-1');
    expect(await offeredLabel(new Device(url, beta, 'd'))).toBe('beta-1');
  });
});
