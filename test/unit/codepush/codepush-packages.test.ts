import { describe, expect, it } from 'vitest';
import {
  codePushPackages,
  diffFor,
  holdsRelease,
  packageHashOf,
} from '../../../src/codepush/codepush-packages.js';
import type { DeltaRow, ServedDeltas } from '../../../src/deltas/deltas.store.js';
import type { RoutedRelease } from '../../../src/routing/routing.types.js';

const BASE = '11111111-1111-4111-8111-111111111111';
const TARGET = '22222222-2222-4222-8222-222222222222';
const hex = (c: string) => c.repeat(64);

const served = (deltas: DeltaRow[]): ServedDeltas => ({
  releases: new Map([
    [BASE, { sha256: hex('a'), version: '1.0.0', folder_hash: hex('b') }],
    [TARGET, { sha256: hex('c'), version: '1.0.1', folder_hash: hex('d') }],
  ]),
  deltas,
});
const diffRow = (more: Partial<DeltaRow> = {}): DeltaRow => ({
  target_release_id: TARGET,
  kind: 'codepush-diff',
  platform: 'any',
  base_update_id: BASE,
  base_release_id: BASE,
  blob_sha256: hex('e'),
  size: 120,
  full_size: 1000,
  ...more,
});
const target = { id: TARGET, sha256: hex('c') } as RoutedRelease;
const link = async (sha256: string) => ({ url: `https://cdn/${sha256}`, handOutUntil: 5_000 });

describe('CodePush packages on the routing cache', () => {
  it("answers a zip's folder hash as package_hash, and either hash of the release as already installed", async () => {
    const { packages } = await codePushPackages(served([]), link);
    expect(packageHashOf(packages, target)).toBe(hex('d'));
    expect(packageHashOf(packages, { id: 'single', sha256: hex('f') } as RoutedRelease)).toBe(hex('f'));
    expect(packageHashOf(undefined, target)).toBe(hex('c'));
    for (const hash of [hex('c'), hex('d'), hex('D')])
      expect(holdsRelease(packages, target, hash)).toBe(true);
    expect(holdsRelease(packages, target, hex('b'))).toBe(false);
    expect(holdsRelease(packages, target, undefined)).toBe(false);
  });

  it('offers the diff to a device naming its base by either hash, or by label when it sends none', async () => {
    const { packages, handOutUntil } = await codePushPackages(served([diffRow()]), link);
    expect(handOutUntil).toBe(5_000);
    const diff = { sha256: hex('e'), size: 120, url: `https://cdn/${hex('e')}` };
    expect(diffFor(packages, target, { packageHash: hex('a') })).toEqual(diff);
    expect(diffFor(packages, target, { packageHash: hex('B'), label: 'whatever' })).toEqual(diff);
    expect(diffFor(packages, target, { label: '1.0.0' })).toEqual(diff);
    // A hash naming no base is another package, whatever its label says: the full release.
    expect(diffFor(packages, target, { packageHash: hex('9'), label: '1.0.0' })).toBeUndefined();
    expect(diffFor(packages, target, {})).toBeUndefined();
  });

  it('leaves out deltas of other kinds and diffs from bases it does not hold', async () => {
    const { packages, handOutUntil } = await codePushPackages(
      served([
        diffRow({ kind: 'capacitor-files' }),
        diffRow({ base_update_id: '33333333-3333-4333-8333-333333333333', base_release_id: null }),
      ]),
      link,
    );
    expect(packages.diffs.size).toBe(0);
    expect(handOutUntil).toBeUndefined();
  });
});
