import type { AppRoute } from '../routing/routing.types.js';
import type { ManifestsStore } from '../signing/manifests.store.js';
import { choosePatch, type ExpoPatch, type PatchRequest } from './expo-patches.js';

/** The stores the asset check reads. */
export interface ExpoAssetsStores {
  manifests: Pick<ManifestsStore, 'expoAssetReferenced'>;
}

export interface ExpoAssetsOptions {
  /** The routing cache: an app's Expo route holds the files its releases name. */
  routing: { get(appId: string): Promise<AppRoute | null> };
}

export function createExpoAssetsService(
  stores: ExpoAssetsStores,
  options: ExpoAssetsOptions,
): ExpoAssetsService {
  return new ExpoAssetsService(stores.manifests, options.routing);
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
  ) {}

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
