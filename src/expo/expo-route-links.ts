import type { BlobLink, BlobLinks } from '../bundles/blob-links.js';
import type { DeltaRow } from '../deltas/deltas.store.js';
import {
  buildExpoRoute,
  type ExpoRoute,
  type ExpoRouteRow,
  type LaunchUrl,
  unsignedAssets,
} from './expo.route.js';
import { expoPatchIndex, launchAssetsOfRows } from './expo-patches.js';

/** What an app's Expo route is built from besides its manifest rows. */
export interface ExpoRouteInputs {
  /** The store's links (BLOB_STORE=s3), or null: the manifests' asset URLs stay the API's. */
  links: BlobLinks | null;
  apiBundleUrl: (sha256: string) => string;
  /** The service's URL of a launch asset of the app: where patches are negotiated. */
  launchUrl: LaunchUrl;
  assetFiles?: readonly string[];
  /** The app's deltas (the deltas store's `served`): its `expo-bsdiff` patches are indexed. */
  deltas?: readonly DeltaRow[];
}

/**
 * An app's Expo route with the store's download URLs (BLOB_STORE=s3): each release's bundle and every asset
 * of its unsigned manifests but the launch asset get the store's URL, and the route says until when they
 * may be handed out. The launch asset's URL is always the service's own (expo.route.ts, LaunchUrl), with
 * the patches it answers indexed on the route.
 */
export async function expoRouteWithLinks(
  rows: readonly ExpoRouteRow[],
  inputs: ExpoRouteInputs,
): Promise<{ expo: ExpoRoute | undefined; handOutUntil?: number }> {
  const { links, apiBundleUrl, launchUrl, assetFiles = [] } = inputs;
  const launchAssets = launchAssetsOfRows(rows);
  const withPatches = (expo: ExpoRoute | undefined): ExpoRoute | undefined =>
    expo && {
      ...expo,
      launchAssets,
      ...(inputs.deltas && inputs.deltas.length > 0
        ? { patches: expoPatchIndex(inputs.deltas, launchAssets) }
        : {}),
    };
  if (links === null)
    return { expo: withPatches(buildExpoRoute(rows, apiBundleUrl, undefined, assetFiles, launchUrl)) };
  const found = new Map<string, BlobLink>();
  const wanted = [
    ...[...new Set(rows.map((r) => r.sha256))].map((sha256) => ({ sha256, contentType: undefined })),
    ...unsignedAssets(rows),
  ];
  await Promise.all(
    wanted.map(async ({ sha256, contentType }) => {
      const link = await links.link(sha256, contentType);
      if (link) found.set(`${sha256} ${contentType ?? ''}`, link);
    }),
  );
  const handOutUntil = Math.min(...[...found.values()].map((l) => l.handOutUntil));
  const expo = buildExpoRoute(
    rows,
    (sha256) => found.get(`${sha256} `)?.url ?? apiBundleUrl(sha256),
    (sha256, contentType) => found.get(`${sha256} ${contentType}`)?.url,
    assetFiles,
    launchUrl,
  );
  return { expo: withPatches(expo), ...(Number.isFinite(handOutUntil) ? { handOutUntil } : {}) };
}
