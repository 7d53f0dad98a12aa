import { describe, expect, it } from 'vitest';
import type { DeltaRow } from '../../../src/deltas/deltas.store.js';
import { base64UrlSha256 } from '../../../src/expo/expo.manifest.js';
import type { NewRelease } from '../../../src/releases/releases.store.js';
import { appWithBundle, type Subject, storeSubjects } from './subjects.js';

/** The deltas store against Postgres and its fake (subjects.ts), over releases the other stores wrote. */
const subjects = storeSubjects();

const SHA = 'ab'.repeat(32);
const IOS_ASSET = 'c1'.repeat(32);
const EMBEDDED = '9a1b2c3d-0000-4000-8000-000000000001';

async function seeded(s: Subject) {
  const { app, release } = await appWithBundle(s, SHA, 11);
  const push = (version: string, more: Partial<NewRelease> = {}) =>
    s.transaction((tx) => s.releases.insert(tx, release(version, more)));
  return { app, push };
}

describe.each(subjects)('%s deltas store', (_name, make) => {
  it('reads a release with its Expo launch assets, and earlier releases of its app and channel newest first', async () => {
    const s = make();
    const { app, push } = await seeded(s);
    const v1 = await push('1.0.0');
    await push('0.9.0', { channel: 'beta' });
    const v2 = await push('1.1.0', { fingerprint: 'rt-1' });
    await s.transaction((tx) =>
      s.manifests.insertParts(tx, v2, [
        {
          part: 'ios',
          body: Buffer.from(JSON.stringify({ launchAsset: { hash: base64UrlSha256(IOS_ASSET) } })),
          signature: null,
          keyId: null,
        },
        { part: 'directive', body: Buffer.from('{}'), signature: null, keyId: null },
      ]),
    );
    const v3 = await push('1.2.0');

    expect(await s.deltas.release(v2.id)).toEqual({
      id: v2.id,
      app_id: app.id,
      channel: 'production',
      seq: v2.seq,
      sha256: SHA,
      size: 11,
      fingerprint: 'rt-1',
      launch_assets: { ios: IOS_ASSET },
    });
    expect(await s.deltas.release('00000000-0000-4000-8000-000000000000')).toBeUndefined();
    const earlier = await s.deltas.earlier(app.id, 'production', v3.seq, 10);
    expect(earlier.map((r) => r.id)).toEqual([v2.id, v1.id]);
    expect(earlier[1]!.launch_assets).toEqual({});
    expect((await s.deltas.earlier(app.id, 'production', v3.seq, 1)).map((r) => r.id)).toEqual([v2.id]);
  });

  it('keeps one package row per release, replaced when written again', async () => {
    const s = make();
    const { push } = await seeded(s);
    const r = await push('1.0.0');
    expect(await s.deltas.package(r.id)).toBeUndefined();
    await s.deltas.recordPackage({ release_id: r.id, is_zip: true, folder_hash: null, file_count: 0 });
    const row = { release_id: r.id, is_zip: true, folder_hash: 'f0'.repeat(32), file_count: 3 };
    await s.deltas.recordPackage(row);
    expect(await s.deltas.package(r.id)).toEqual(row);
  });

  it('keeps one delta per target, kind, platform and base, listed in that order', async () => {
    const s = make();
    const { push } = await seeded(s);
    const base = await push('1.0.0');
    const target = await push('1.1.0');
    const delta = (more: Partial<DeltaRow>): DeltaRow => ({
      target_release_id: target.id,
      kind: 'codepush-diff',
      platform: 'any',
      base_update_id: base.id,
      base_release_id: base.id,
      blob_sha256: 'd1'.repeat(32),
      size: 100,
      full_size: 1000,
      ...more,
    });
    await s.deltas.recordDelta(delta({}));
    await s.deltas.recordDelta(delta({ blob_sha256: 'd2'.repeat(32), size: 90 }));
    await s.deltas.recordDelta(delta({ kind: 'expo-bsdiff', platform: 'ios' }));
    await s.deltas.recordDelta(
      delta({ kind: 'expo-bsdiff', platform: 'android', base_update_id: EMBEDDED, base_release_id: null }),
    );
    await s.deltas.recordDelta(
      delta({ kind: 'capacitor-files', size: 5_000_000_000, full_size: 6_000_000_000 }),
    );
    const rows = await s.deltas.deltasOf(target.id);
    expect(rows.map((r) => [r.kind, r.platform, r.base_update_id])).toEqual([
      ['capacitor-files', 'any', base.id],
      ['codepush-diff', 'any', base.id],
      ['expo-bsdiff', 'android', EMBEDDED],
      ['expo-bsdiff', 'ios', base.id],
    ]);
    expect(rows[0]).toMatchObject({ size: 5_000_000_000, full_size: 6_000_000_000 });
    expect(rows[1]).toEqual(delta({ blob_sha256: 'd2'.repeat(32), size: 90 }));
    expect(await s.deltas.deltasOf(base.id)).toEqual([]);
  });

  it("serves the app's newest releases with their folder hashes, and their deltas", async () => {
    const s = make();
    const { app, push } = await seeded(s);
    const base = await push('1.0.0');
    const target = await push('1.1.0');
    await s.deltas.recordPackage({
      release_id: base.id,
      is_zip: true,
      folder_hash: 'f1'.repeat(32),
      file_count: 2,
    });
    const row: DeltaRow = {
      target_release_id: target.id,
      kind: 'codepush-diff',
      platform: 'any',
      base_update_id: base.id,
      base_release_id: base.id,
      blob_sha256: 'd1'.repeat(32),
      size: 100,
      full_size: 1000,
    };
    await s.deltas.recordDelta(row);
    const served = await s.deltas.served(app.id, 10);
    expect(served.releases).toEqual(
      new Map([
        [base.id, { sha256: SHA, version: '1.0.0', folder_hash: 'f1'.repeat(32) }],
        [target.id, { sha256: SHA, version: '1.1.0', folder_hash: null }],
      ]),
    );
    expect(served.deltas).toEqual([row]);
    // Only the newest: the target's own deltas go with it.
    const newest = await s.deltas.served(app.id, 1);
    expect([...newest.releases.keys()]).toEqual([target.id]);
    expect((await s.deltas.served(app.id, 1)).deltas).toEqual([row]);
    const older = await s.deltas.served('00000000-0000-4000-8000-000000000000', 10);
    expect(older).toEqual({ releases: new Map(), deltas: [] });
  });

  it('lists the embedded updates recorded for a runtime version, newest first, each once per platform', async () => {
    const s = make();
    const { app, push } = await seeded(s);
    const embedded = (platform: 'ios' | 'android', update_id: string, c: string) => ({
      platform,
      update_id,
      launch_asset: c.repeat(64),
    });
    const OTHER = '9a1b2c3d-0000-4000-8000-000000000002';
    const r1 = await push('1.0.0', { fingerprint: 'rt-1' });
    const r2 = await push('1.0.1', { fingerprint: 'rt-1' });
    const r3 = await push('1.0.2', { fingerprint: 'rt-2' });
    await s.transaction((tx) => s.manifests.insertEmbedded(tx, r1.id, [embedded('ios', EMBEDDED, 'a')]));
    await s.transaction((tx) =>
      s.manifests.insertEmbedded(tx, r2.id, [
        embedded('ios', OTHER, 'b'),
        embedded('android', EMBEDDED, 'c'),
      ]),
    );
    await s.transaction((tx) => s.manifests.insertEmbedded(tx, r3.id, [embedded('ios', EMBEDDED, 'd')]));
    expect(await s.deltas.embeddedBases(app.id, 'rt-1', r2.seq, 5)).toEqual([
      embedded('android', EMBEDDED, 'c'),
      embedded('ios', OTHER, 'b'),
      embedded('ios', EMBEDDED, 'a'),
    ]);
    expect(await s.deltas.embeddedBases(app.id, 'rt-1', r1.seq, 5)).toEqual([embedded('ios', EMBEDDED, 'a')]);
    expect(await s.deltas.embeddedBases(app.id, 'rt-1', r2.seq, 1)).toEqual([
      embedded('android', EMBEDDED, 'c'),
      embedded('ios', OTHER, 'b'),
    ]);
    expect(await s.deltas.embeddedBases(app.id, 'rt-2', r3.seq, 5)).toEqual([embedded('ios', EMBEDDED, 'd')]);
  });
});
