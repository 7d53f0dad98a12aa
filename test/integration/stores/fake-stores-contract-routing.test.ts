import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { NewRelease } from '../../../src/releases/releases.store.js';
import { appWithBundle, type Subject, storeSubjects } from './subjects.js';

/** The routing reads against Postgres and the fakes (subjects.ts), over rows the other stores wrote. */
const subjects = storeSubjects();

const SHA = 'ef'.repeat(32);
const SIGNATURE = 'c2lnbmF0dXJlLW9mLXRoZS1jaGVjaw==';

async function seeded(s: Subject) {
  const { ws, app, release } = await appWithBundle(s, SHA, 7);
  const push = (version: string, more: Partial<NewRelease> = {}) =>
    s.transaction((tx) => s.releases.insert(tx, release(version, more)));
  return { ws, app, push };
}

describe.each(subjects)('%s routing store', (_name, make) => {
  it('answers the app, its plan and its active non-Expo releases newest first, signed ones with their check', async () => {
    const s = make();
    const { ws, app, push } = await seeded(s);
    const v1 = await push('1.0.0');
    const gone = await push('1.1.0');
    await s.transaction((tx) => s.releases.deactivate(tx, gone.id));
    const signed = await push('1.2.0', {
      rolloutPct: 30,
      fingerprint: 'fp',
      targetBinaryRange: '^2.0.0',
      crc32: '0a1b2c3d',
    });
    await s.transaction((tx) =>
      s.manifests.insertParts(tx, signed, [
        { part: 'check', body: Buffer.from('{"m":1}'), signature: SIGNATURE, keyId: 'key-1' },
      ]),
    );
    const expo = await push('1.3.0');
    await s.transaction((tx) =>
      s.manifests.insertParts(tx, expo, [
        { part: 'directive', body: Buffer.from('{}'), signature: null, keyId: null },
      ]),
    );
    const beta = await push('0.1.0', {
      channel: 'beta',
      mandatory: true,
      notes: 'b',
      capacitor: { checksum: 'ab'.repeat(256), sessionKey: 'iv:key', keyId: 'MIIBCgKCAQEAl+cqGoBz' },
    });

    const found = await s.routing.app(app.id);
    expect(found?.app).toEqual({ workspace_id: ws, plan: 'hobby' });
    expect(found?.releases.map((r) => r.id)).toEqual([beta.id, signed.id, v1.id]);
    expect(found?.releases[1]).toEqual({
      id: signed.id,
      channel: 'production',
      version: '1.2.0',
      rollout_pct: 30,
      mandatory: false,
      notes: '',
      sha256: SHA,
      size: 7,
      fingerprint: 'fp',
      target_binary_range: '^2.0.0',
      paused: false,
      capacitor_checksum: null,
      capacitor_session_key: null,
      capacitor_key_id: null,
      crc32: '0a1b2c3d',
      signed_manifest: Buffer.from('{"m":1}'),
      signature: SIGNATURE,
      key_id: 'key-1',
    });
    expect(found?.releases[2]).toMatchObject({ signed_manifest: null, signature: null, key_id: null });
    expect(found?.releases[0]).toMatchObject({
      channel: 'beta',
      mandatory: true,
      notes: 'b',
      // What a Capacitor device receives besides the bytes.
      capacitor_checksum: 'ab'.repeat(256),
      capacitor_session_key: 'iv:key',
      capacitor_key_id: 'MIIBCgKCAQEAl+cqGoBz',
    });

    // Modules: every release of the app, active or not, Expo too, newest first and bounded.
    expect(await s.routing.moduleIds(app.id, 10)).toEqual([beta.id, expo.id, signed.id, gone.id, v1.id]);
    expect(await s.routing.moduleIds(app.id, 2)).toEqual([beta.id, expo.id]);
  });

  it('answers a paused release as paused, the device overrides and the self-assignable channels', async () => {
    const s = make();
    const { ws, app, push } = await seeded(s);
    const v1 = await push('1.0.0');
    const v2 = await push('1.1.0');
    await s.transaction((tx) => s.releases.setPaused(tx, v2.id, true));
    const found = await s.routing.app(app.id);
    expect(found?.releases.map((r) => [r.id, r.paused])).toEqual([
      [v2.id, true],
      [v1.id, false],
    ]);

    expect(await s.routing.deviceOverrides(app.id)).toEqual([]);
    await s.transaction((tx) => s.deviceOverrides.put(tx, ws, app.id, 'tester-1', { channel: 'beta' }));
    await s.transaction((tx) => s.deviceOverrides.put(tx, ws, app.id, 'support-7', { releaseId: v1.id }));
    const overrides = await s.routing.deviceOverrides(app.id);
    expect(overrides.sort((a, b) => a.device_id.localeCompare(b.device_id))).toEqual([
      { device_id: 'support-7', channel: null, release_id: v1.id },
      { device_id: 'tester-1', channel: 'beta', release_id: null },
    ]);

    expect(await s.routing.selfAssignableChannels(app.id)).toEqual([]);
    await s.transaction((tx) => s.channels.set(tx, app.id, 'beta', true));
    await s.transaction((tx) => s.channels.set(tx, app.id, 'staging', false));
    expect(await s.routing.selfAssignableChannels(app.id)).toEqual(['beta']);
    expect(await s.routing.deviceOverrides(randomUUID())).toEqual([]);
    expect(await s.routing.selfAssignableChannels(randomUUID())).toEqual([]);
  });

  it('lists deployment keys with their channels; an unknown or empty app answers nothing', async () => {
    const s = make();
    const { ws, app } = await seeded(s);
    const key = `k${randomUUID().replaceAll('-', '')}`;
    await s.transaction((tx) => s.deploymentKeys.insert(tx, key, app.id, 'beta'));
    expect(await s.routing.deploymentKeys(app.id)).toEqual([{ key, channel: 'beta' }]);
    expect(await s.routing.app(app.id)).toEqual({ app: { workspace_id: ws, plan: 'hobby' }, releases: [] });
    expect(await s.routing.app(randomUUID())).toBeUndefined();
    expect(await s.routing.moduleIds(randomUUID(), 10)).toEqual([]);
    expect(await s.routing.deploymentKeys(randomUUID())).toEqual([]);
  });
});
