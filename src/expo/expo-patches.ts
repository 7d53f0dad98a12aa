import { canonicalUuid } from '@ota/shared/ids';
import type { DeltaRow } from '../deltas/deltas.store.js';
import { launchAssetOf } from '../deltas/launch-asset.js';
import { EXPO_PLATFORMS, type ExpoPlatform } from './expo.manifest.js';

/**
 * Expo's patched launch assets (docs/reference/delta-updates.md, "Expo"): a BSDIFF40 patch that turns the
 * launch asset of the update a device runs (a release, or the update embedded in its binary) into a
 * release's launch asset. Indexed by what an asset request names: the launch asset file it asks for and
 * the update it runs (`Expo-Current-Update-ID`), so choosing one is a map lookup on the routing cache.
 */
export interface ExpoPatch {
  /** The release whose launch asset the patch makes. */
  targetUpdateId: string;
  platform: ExpoPlatform;
  /** The update the device runs: `expo-base-update-id` of the answer. */
  baseUpdateId: string;
  /** The patch's blob. */
  sha256: string;
  size: number;
}

/** Launch asset (hex sha256) + base update id -> the patches that make that asset from that base. */
export type ExpoPatchIndex = ReadonlyMap<string, readonly ExpoPatch[]>;

const keyOf = (launchSha256: string, baseUpdateId: string) => `${launchSha256}\n${baseUpdateId}`;

/** A release's launch asset per platform, read from its stored manifest parts. */
export type LaunchAssets = ReadonlyMap<string, Partial<Record<ExpoPlatform, string>>>;

/** The launch assets of the manifest rows of an app's Expo releases (ExpoRouteRow: id, part, body). */
export function launchAssetsOfRows(
  rows: ReadonlyArray<{ id: string; part: string; body: Buffer }>,
): Map<string, Partial<Record<ExpoPlatform, string>>> {
  const out = new Map<string, Partial<Record<ExpoPlatform, string>>>();
  for (const row of rows) {
    if (!(EXPO_PLATFORMS as readonly string[]).includes(row.part)) continue;
    const sha256 = launchAssetOf(row.body);
    if (sha256 === null) continue;
    const assets = out.get(row.id) ?? {};
    assets[row.part as ExpoPlatform] = sha256;
    out.set(row.id, assets);
  }
  return out;
}

/** The index of the app's `expo-bsdiff` deltas whose target is one of the releases in `launchAssets`. */
export function expoPatchIndex(deltas: readonly DeltaRow[], launchAssets: LaunchAssets): ExpoPatchIndex {
  const index = new Map<string, ExpoPatch[]>();
  for (const d of deltas) {
    if (d.kind !== 'expo-bsdiff' || d.platform === 'any') continue;
    const launch = launchAssets.get(d.target_release_id)?.[d.platform];
    if (launch === undefined) continue;
    const key = keyOf(launch, d.base_update_id);
    const list = index.get(key) ?? [];
    list.push({
      targetUpdateId: d.target_release_id,
      platform: d.platform,
      baseUpdateId: d.base_update_id,
      sha256: d.blob_sha256,
      size: d.size,
    });
    index.set(key, list);
  }
  return index;
}

/** The headers of an asset request that ask for a patch (expo-updates 55+, FileDownloader). */
export type PatchRequest = Record<string, string | string[] | undefined>;

const single = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? undefined : value;

/** True when `A-IM` lists `bsdiff` (comma-separated instance manipulations, parameters ignored). */
export function acceptsBsdiff(aIm: string | string[] | undefined): boolean {
  const values = Array.isArray(aIm) ? aIm : aIm === undefined ? [] : [aIm];
  return values.some((v) =>
    v.split(',').some((item) => item.split(';')[0]!.trim().toLowerCase() === 'bsdiff'),
  );
}

/**
 * The patch to answer an asset request for `launchSha256` with, or undefined: full bytes. A patch is chosen
 * only when the request accepts bsdiff and names the update it runs, and only when every patch from that
 * base to this asset is the same bytes once narrowed by the requested update and the platform (when the
 * request names them): a device is never sent a patch made from a launch asset it may not hold.
 */
export function choosePatch(
  index: ExpoPatchIndex | undefined,
  launchSha256: string,
  headers: PatchRequest,
): ExpoPatch | undefined {
  if (!index || index.size === 0 || !acceptsBsdiff(headers['a-im'])) return undefined;
  const base = canonicalUuid(single(headers['expo-current-update-id']));
  if (base === undefined) return undefined;
  let patches = index.get(keyOf(launchSha256, base));
  if (!patches) return undefined;
  const requested = canonicalUuid(single(headers['expo-requested-update-id']));
  if (requested !== undefined) {
    const named = patches.filter((p) => p.targetUpdateId === requested);
    if (named.length > 0) patches = named;
  }
  const platform = single(headers['expo-platform']);
  if (platform === 'ios' || platform === 'android') patches = patches.filter((p) => p.platform === platform);
  const first = patches[0];
  return first && patches.every((p) => p.sha256 === first.sha256) ? first : undefined;
}
