import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32Hex } from '../../../src/bundles/blob-crc32.js';
import { CapacitorDevice } from '../../helpers/capacitor-device.js';
import { createTestContext, fileContext } from '../../helpers/context.js';
import { download } from '../../helpers/downloads.js';
import { rollback, rollout, setPlan, workspaceWithApp } from '../releases/fixtures.js';
import { settle } from '../updates/seed.js';
import { capacitorRelease, check, control, fixture, PUBLIC_KEY, send, VECTORS } from './harness.js';

/**
 * POST /capacitor/{app_id}/updates driven with the plugin's bodies (test/fixtures/capacitor/) and read the
 * way the plugin reads answers (test/helpers/capacitor-device.ts). Runs on disk and on S3.
 */
const ctx = fileContext();

const device = (extra: ConstructorParameters<typeof CapacitorDevice>[0] = {}) =>
  new CapacitorDevice({ deviceId: crypto.randomUUID(), ...extra });

describe('Capacitor update check', () => {
  it('serves each generation’s fixture body the release, which the plugin downloads and verifies', async () => {
    const ws = await workspaceWithApp(ctx);
    const zip = Buffer.from(VECTORS.zip_base64, 'base64');
    const r = await capacitorRelease(ctx, ws, '1.0.1', { bytes: zip });
    for (const generation of ['8.51.14', '7.33.4', '5.4.1'] as const) {
      for (const platform of ['android', 'ios'] as const) {
        const res = await send(ctx, ws.appId, 'updates', fixture(generation, platform, 'updates.json'));
        expect(res.statusCode, res.body).toBe(200);
        const answer = res.json();
        expect(Object.keys(answer).sort()).toEqual(['checksum', 'url', 'version']);
        // 5.4.1 verifies the zip's CRC32 (src/capacitor/plugin-versions.ts), the others its SHA-256.
        const checksum = generation === '5.4.1' ? crc32Hex(crc32(zip)) : r.sha256;
        expect(answer).toMatchObject({ version: '1.0.1', checksum });
        expect(JSON.stringify(answer)).not.toContain('null');
      }
    }
    const d = device();
    const outcome = await check(ctx, ws.appId, d);
    if (outcome.kind !== 'update') throw new Error(`no update: ${outcome.raw.body}`);
    const bytes = (await download(ctx, outcome.url)).bytes;
    expect(d.install(outcome, bytes).equals(zip)).toBe(true);
  });

  it('answers nothing newer with error and kind up_to_date, and an unknown app with a 404 problem', async () => {
    const ws = await workspaceWithApp(ctx);
    const d = device();
    expect((await check(ctx, ws.appId, d)).kind).toBe('up_to_date');
    const r = await capacitorRelease(ctx, ws, '2.0.0');
    d.versionName = r.version;
    const same = await check(ctx, ws.appId, d);
    expect(same.kind).toBe('up_to_date');
    expect(same.raw.json()).toEqual({
      error: 'no_new_version_available',
      message: 'No new version available',
      kind: 'up_to_date',
    });
    const unknown = await send(ctx, crypto.randomUUID(), 'updates', d.updatesBody());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^application\/problem\+json/);
    const invalid = await send(ctx, ws.appId, 'updates', { version_name: 'builtin' });
    expect(invalid.statusCode).toBe(400);
  });

  it('gives a device with a public key only releases signed with it, never an unsigned checksum', async () => {
    const ws = await workspaceWithApp(ctx);
    const keyed = device({ publicKey: PUBLIC_KEY });
    const plain = device();
    await capacitorRelease(ctx, ws, '1.0.0');
    const refused = await check(ctx, ws.appId, keyed);
    expect(refused.kind).toBe('up_to_date');
    expect(refused.raw.json()).not.toHaveProperty('checksum');

    const sealed = await capacitorRelease(ctx, ws, '1.1.0', { encrypted: true });
    const outcome = await check(ctx, ws.appId, keyed);
    if (outcome.kind !== 'update') throw new Error(`no update: ${outcome.raw.body}`);
    expect(outcome).toMatchObject({ version: '1.1.0', checksum: VECTORS.signed_checksum });
    expect(outcome.sessionKey).toBe(VECTORS.session_key);
    const zip = keyed.install(outcome, (await download(ctx, outcome.url)).bytes);
    expect(createHash('sha256').update(zip).digest('hex')).toBe(VECTORS.zip_sha256);

    // The device without a key gets the unsigned release, and keeps it; one of 8.2-8.40 (4 characters of
    // key_id) gets the sealed one.
    expect(await check(ctx, ws.appId, plain)).toMatchObject({ kind: 'update', version: '1.0.0' });
    plain.versionName = '1.0.0';
    expect((await check(ctx, ws.appId, plain)).kind).toBe('up_to_date');
    const short = { ...keyed.updatesBody(), key_id: 'MIIB' };
    expect((await send(ctx, ws.appId, 'updates', short)).json()).toMatchObject({ version: sealed.version });
    // Another key: nothing, never the unsigned release.
    const other = await send(ctx, ws.appId, 'updates', {
      ...keyed.updatesBody(),
      key_id: 'MIIBCgKCAQEAzzzzzzzz',
    });
    expect(other.json()).toMatchObject({ kind: 'up_to_date' });
    expect(other.json()).not.toHaveProperty('checksum');
  });

  it('sends a device back to builtin after a rollback with nothing else to run, the previous release otherwise', async () => {
    const ws = await workspaceWithApp(ctx);
    // 1.0.0 runs only on native 2.x: a 1.4.0 shell has nothing to fall back to but its built-in bundle.
    const v0 = await capacitorRelease(ctx, ws, '1.0.0', { extra: { target_binary_range: '>=2.0.0' } });
    const v1 = await capacitorRelease(ctx, ws, '1.1.0');
    const v2 = await capacitorRelease(ctx, ws, '1.2.0');
    const d = device();
    d.versionName = v2.version;
    expect((await check(ctx, ws.appId, d)).kind).toBe('up_to_date');
    expect((await rollback(ctx, ws.headers, v2.id)).statusCode).toBe(200);
    await settle(ctx);
    expect(await check(ctx, ws.appId, d)).toMatchObject({ kind: 'update', version: v1.version });
    expect((await rollback(ctx, ws.headers, v1.id)).statusCode).toBe(200);
    await settle(ctx);
    expect(await check(ctx, ws.appId, device({ versionBuild: '2.0.0' }))).toMatchObject({
      version: v0.version,
    });
    d.versionName = v1.version;
    const reset = await check(ctx, ws.appId, d);
    expect(reset.kind).toBe('builtin');
    expect(reset.raw.json()).toEqual({ version: 'builtin' });
    // A plugin before 6.2 takes builtin for a failed update: it is told nothing instead.
    const old = await send(ctx, ws.appId, 'updates', {
      ...fixture('5.4.1', 'android', 'updates.json'),
      version_name: v1.version,
    });
    expect(old.json()).toMatchObject({ kind: 'up_to_date' });
    // A device on builtin is not told to reset again.
    d.versionName = 'builtin';
    expect((await check(ctx, ws.appId, d)).kind).toBe('up_to_date');
  });

  it('stages a rollout by the published bucket, keeps a paused release on its devices, honours version_build', async () => {
    const ws = await workspaceWithApp(ctx);
    await setPlan(ctx, ws.workspaceId, 'pro');
    const base = await capacitorRelease(ctx, ws, '1.0.0');
    const staged = await capacitorRelease(ctx, ws, '1.1.0', { extra: { rollout_pct: 30 } });
    const bucket = (id: string) =>
      Number.parseInt(createHash('sha256').update(`${staged.id}:${id}`).digest('hex').slice(0, 8), 16) % 100;
    const devices = Array.from({ length: 40 }, () => device());
    for (const d of devices) {
      const outcome = await check(ctx, ws.appId, d);
      expect(outcome).toMatchObject({ kind: 'update', version: bucket(d.deviceId) < 30 ? '1.1.0' : '1.0.0' });
    }
    expect((await rollout(ctx, ws.headers, staged.id, 100)).statusCode).toBe(200);
    await control(ctx, ws, 'POST', `/modules/${staged.id}/pause`);
    const on = device();
    on.versionName = staged.version;
    expect((await check(ctx, ws.appId, on)).kind).toBe('up_to_date');
    expect(await check(ctx, ws.appId, device())).toMatchObject({ kind: 'update', version: base.version });

    const ranged = await capacitorRelease(ctx, ws, '2.0.0', { extra: { target_binary_range: '>=2.0.0' } });
    const oldShell = device({ versionBuild: '1.4.0' });
    const newShell = device({ versionBuild: '2.1' });
    expect(await check(ctx, ws.appId, oldShell)).toMatchObject({ version: base.version });
    expect(await check(ctx, ws.appId, newShell)).toMatchObject({ version: ranged.version });
  });

  it('serves a device override: its channel, or its pinned release', async () => {
    const ws = await workspaceWithApp(ctx);
    await setPlan(ctx, ws.workspaceId, 'pro');
    await capacitorRelease(ctx, ws, '1.0.0');
    const beta = await capacitorRelease(ctx, ws, '1.5.0-beta', { extra: { channel: 'beta' } });
    const pinned = await capacitorRelease(ctx, ws, '0.9.0', { extra: { rollout_pct: 0 } });
    const a = device();
    const b = device();
    await control(ctx, ws, 'PUT', `/apps/${ws.appId}/device-overrides/${a.deviceId}`, { channel: 'beta' });
    await control(ctx, ws, 'PUT', `/apps/${ws.appId}/device-overrides/${b.deviceId}`, {
      module_id: pinned.id,
    });
    expect(await check(ctx, ws.appId, a)).toMatchObject({ version: beta.version });
    expect(await check(ctx, ws.appId, b)).toMatchObject({ version: pinned.version });
  });

  it('answers a limited device 429 with Retry-After in seconds, which the plugin waits for', async () => {
    const limited = await createTestContext({ env: { RATE_LIMIT_DEVICE_PER_MINUTE: '2' } });
    try {
      const ws = await workspaceWithApp(limited);
      const d = device();
      let outcome = await check(limited, ws.appId, d);
      for (let i = 0; i < 3 && outcome.raw.statusCode !== 429; i++)
        outcome = await check(limited, ws.appId, d);
      expect(outcome.raw.statusCode).toBe(429);
      const seconds = Number(outcome.raw.headers['retry-after']);
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThanOrEqual(60);
      expect(d.blockedUntil).toBeGreaterThan(Date.now());
    } finally {
      await limited.close();
    }
  });
});
