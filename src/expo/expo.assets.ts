import { canonicalUuid } from '@ota/shared/ids';
import type { BytesServedRecorder } from '../analytics/bytes-served.js';
import type { AppRoute } from '../routing/routing.types.js';
import { choosePatch, type ExpoPatch, type PatchRequest } from './expo-patches.js';
import type { ManifestsStore } from './manifests.store.js';

/** The stores the asset check reads. */
export interface ExpoAssetsStores {
  manifests: Pick<ManifestsStore, 'expoAssetReferenced'>;
}

export interface ExpoAssetsOptions {
  /** The routing cache: an app's Expo route holds the files its releases name. */
  routing: { get(appId: string): Promise<AppRoute | null>; peek(appId: string): AppRoute | null | undefined };
  /** Counts the launch asset bytes the API hands out (release stats' bytes_served). */
  bytesServed?: BytesServedRecorder;
}

export function createExpoAssetsService(
  stores: ExpoAssetsStores,
  options: ExpoAssetsOptions,
): ExpoAssetsService {
  return new ExpoAssetsService(stores.manifests, options.routing, options.bytesServed);
}

/**
 * Which files an Expo asset URL may serve: only those some release of the URL's app names (expo_assets),
 * so an upload nobody released, or released by another app, is not served under an extension of the
 * caller's choosing. A file the routing cache holds costs no query (the URLs devices fetch); any other is
 * one indexed lookup, which also covers a release pushed a moment ago and apps with more files than the
 * cache holds. Old manifests' URLs carry no app: a file some release of any app names.
 */
export class ExpoAssetsService {
  constructor(
    private readonly store: Pick<ManifestsStore, 'expoAssetReferenced'>,
    private readonly routing: ExpoAssetsOptions['routing'],
    private readonly bytesServed?: BytesServedRecorder,
  ) {}

  /** Counts a patch the launch asset URL answered, for the release it makes. */
  servedPatch(appId: string, patch: ExpoPatch): void {
    this.bytesServed?.record(appId, patch.targetUpdateId, 'patch', patch.size);
  }

  /**
   * Counts the full bytes of a launch asset the API answered (or redirected to), for the release the
   * request names (`Expo-Requested-Update-ID`, sent by expo-updates 55+) when that release's launch asset
   * is this file; a request naming none is not counted (docs/reference/delta-updates.md, "Bytes served").
   */
  servedFull(appId: string, file: string, headers: PatchRequest, size: number): void {
    const requested = canonicalUuid(headers['expo-requested-update-id']);
    if (!this.bytesServed || requested === undefined || !isLaunchAssetFile(file)) return;
    const route = this.routing.peek(appId);
    const launch = route ? route.expo?.launchAssets?.get(requested) : undefined;
    const sha256 = file.slice(0, 64).toLowerCase();
    if (launch && Object.values(launch).includes(sha256))
      this.bytesServed.record(appId, requested, 'full', size);
  }

  /**
   * The patch to answer a launch asset request of the app with (a `<sha256>.bundle` file), chosen from the
   * routing cache: no query. Undefined: the full bytes.
   */
  async patchFor(appId: string, file: string, headers: PatchRequest): Promise<ExpoPatch | undefined> {
    if (!isLaunchAssetFile(file) || headers['a-im'] === undefined) return undefined;
    const route = await this.routing.get(appId);
    return choosePatch(route?.expo?.patches, file.slice(0, 64).toLowerCase(), headers);
  }

  /** `file` is `<sha256>.<ext>`; `appId` null for the old URLs without an app. */
  async referenced(appId: string | null, file: string): Promise<boolean> {
    const name = file.toLowerCase();
    if (appId === null) return this.store.expoAssetReferenced(null, name);
    const route = await this.routing.get(appId);
    if (route === null) return false;
    if (route.expo?.assets.has(name)) return true;
    return this.store.expoAssetReferenced(appId, name);
  }
}

/** A launch asset's file: manifests name it `<sha256>.bundle` whatever the bundle's own extension. */
export function isLaunchAssetFile(file: string): boolean {
  return file.toLowerCase().endsWith('.bundle');
}
