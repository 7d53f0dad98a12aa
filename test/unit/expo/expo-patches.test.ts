import { describe, expect, it } from 'vitest';
import type { DeltaRow } from '../../../src/deltas/deltas.store.js';
import { manifestBytes } from '../../../src/expo/expo.manifest.js';
import { acceptsBsdiff, choosePatch, expoPatchIndex } from '../../../src/expo/expo-patches.js';

const BASE = '11111111-1111-4111-8111-111111111111';
const TARGET = '22222222-2222-4222-8222-222222222222';
const OTHER = '33333333-3333-4333-8333-333333333333';
const LAUNCH = 'a'.repeat(64);

function patch(more: Partial<DeltaRow>): DeltaRow {
  return {
    target_release_id: TARGET,
    kind: 'expo-bsdiff',
    platform: 'ios',
    base_update_id: BASE,
    base_release_id: BASE,
    blob_sha256: 'b'.repeat(64),
    size: 100,
    full_size: 1000,
    ...more,
  };
}

const headers = (more: Record<string, string> = {}) => ({
  'a-im': 'bsdiff',
  'expo-current-update-id': BASE.toUpperCase(),
  ...more,
});

describe('Expo patch negotiation', () => {
  it('reads A-IM as a comma list of instance manipulations, parameters and case aside', () => {
    expect(acceptsBsdiff('bsdiff')).toBe(true);
    expect(acceptsBsdiff('gzip, BSDIFF;q=0.5')).toBe(true);
    expect(acceptsBsdiff(['vcdiff', 'bsdiff'])).toBe(true);
    expect(acceptsBsdiff('bsdiff43')).toBe(false);
    expect(acceptsBsdiff(undefined)).toBe(false);
  });

  it("picks the patch from the device's update to the asked launch asset, any case of the id", () => {
    const index = expoPatchIndex([patch({})], new Map([[TARGET, { ios: LAUNCH }]]));
    expect(choosePatch(index, LAUNCH, headers())).toMatchObject({
      baseUpdateId: BASE,
      targetUpdateId: TARGET,
    });
    expect(choosePatch(index, LAUNCH, { ...headers(), 'a-im': undefined })).toBeUndefined();
    expect(choosePatch(index, LAUNCH, headers({ 'expo-current-update-id': OTHER }))).toBeUndefined();
    expect(choosePatch(index, LAUNCH, headers({ 'expo-current-update-id': 'not-a-uuid' }))).toBeUndefined();
    expect(choosePatch(index, 'c'.repeat(64), headers())).toBeUndefined();
    // Another CodePush or Capacitor delta of the release is not a patch of its launch asset.
    const mixed = expoPatchIndex(
      [patch({ kind: 'codepush-diff', platform: 'any' })],
      new Map([[TARGET, { ios: LAUNCH }]]),
    );
    expect(choosePatch(mixed, LAUNCH, headers())).toBeUndefined();
  });

  it('never sends a patch that may not fit what the device holds: two different ones, and no platform', () => {
    // Both platforms ship the same launch asset, made from different bases' bytes.
    const rows = [patch({}), patch({ platform: 'android', blob_sha256: 'c'.repeat(64) })];
    const index = expoPatchIndex(rows, new Map([[TARGET, { ios: LAUNCH, android: LAUNCH }]]));
    expect(choosePatch(index, LAUNCH, headers())).toBeUndefined();
    expect(choosePatch(index, LAUNCH, headers({ 'expo-platform': 'android' }))).toMatchObject({
      platform: 'android',
      sha256: 'c'.repeat(64),
    });
  });

  it('prefers the requested update when several releases share the launch asset', () => {
    const rows = [patch({}), patch({ target_release_id: OTHER, blob_sha256: 'd'.repeat(64) })];
    const index = expoPatchIndex(
      rows,
      new Map([
        [TARGET, { ios: LAUNCH }],
        [OTHER, { ios: LAUNCH }],
      ]),
    );
    expect(choosePatch(index, LAUNCH, headers({ 'expo-requested-update-id': OTHER }))?.sha256).toBe(
      'd'.repeat(64),
    );
  });

  it("keeps the launch asset's URL the service's own when assets get the store's (BUNDLE_BASE_URL)", () => {
    const body = manifestBytes(
      {
        id: TARGET,
        appId: OTHER,
        createdAt: new Date(0),
        runtimeVersion: '1',
        launchAsset: { sha256: LAUNCH, md5: '0'.repeat(32), ext: null },
        assets: [{ sha256: 'e'.repeat(64), md5: '1'.repeat(32), ext: 'png' }],
        extra: {},
      },
      'https://ota.example',
      (sha256) => `https://cdn.example/${sha256}`,
    );
    const manifest = JSON.parse(body.toString('utf8'));
    expect(manifest.launchAsset.url).toBe(`https://ota.example/api/v1/expo/${OTHER}/assets/${LAUNCH}.bundle`);
    expect(manifest.assets[0].url).toBe(`https://cdn.example/${'e'.repeat(64)}`);
  });
});
