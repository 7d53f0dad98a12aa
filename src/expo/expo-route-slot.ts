import type { BlobLinks } from '../bundles/blob-links.js';
import type { RouteSlotLoader } from '../routing/routing.source.js';
import { assetPath } from './expo.manifest.js';
import { EXPO_ASSET_FILES_HELD, type ExpoRoute } from './expo.route.js';
import { expoRouteWithLinks } from './expo-route-links.js';
import type { ManifestsStore } from './manifests.store.js';

declare module '../routing/routing.types.js' {
  interface RouteSlots {
    /** The app's Expo releases, absent when it has none; never in `channels`. */
    expo?: ExpoRoute;
  }
}

export interface ExpoRouteSlotOptions {
  manifests: Pick<ManifestsStore, 'expoRouteRows' | 'expoAssetFiles'>;
  /** The store's links (BLOB_STORE=s3), or null: the URLs are the API's. */
  links: BlobLinks | null;
  /** The API's own absolute download URL of a bundle. */
  bundleUrl: (sha256: string) => string;
  publicUrl: string;
}

/**
 * The Expo adapter's slot of the routing entry: the app's Expo releases with their download URLs, the asset
 * files some release names (what its asset URLs may serve) and the patches of its launch assets, read from
 * the served deltas loaded before it.
 */
export function expoRouteSlot(options: ExpoRouteSlotOptions): RouteSlotLoader {
  const { manifests, links, bundleUrl, publicUrl } = options;
  return {
    load: async (appId, earlier) => {
      const rows = await manifests.expoRouteRows(appId);
      const files = rows.length === 0 ? [] : await manifests.expoAssetFiles(appId, EXPO_ASSET_FILES_HELD);
      const expo = await expoRouteWithLinks(rows, {
        links,
        apiBundleUrl: bundleUrl,
        launchUrl: (sha256) => `${publicUrl}${assetPath(appId, { sha256, ext: null })}`,
        assetFiles: files,
        ...(earlier.deltas ? { deltas: earlier.deltas.deltas } : {}),
      });
      return {
        slots: { expo: expo.expo },
        ...(expo.handOutUntil === undefined ? {} : { handOutUntil: expo.handOutUntil }),
      };
    },
  };
}
