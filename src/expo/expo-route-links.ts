import type { BlobLink, BlobLinks } from '../bundles/blob-links.js';
import { buildExpoRoute, type ExpoRoute, type ExpoRouteRow, unsignedAssets } from './expo.route.js';

/**
 * An app's Expo route with the store's download URLs (BLOB_STORE=s3): each release's bundle and every asset
 * of its unsigned manifests get the store's URL, and the route says until when they may be handed out.
 * Without store URLs (the disk store) the manifests are served as pushed.
 */
export async function expoRouteWithLinks(
  rows: readonly ExpoRouteRow[],
  links: BlobLinks | null,
  apiBundleUrl: (sha256: string) => string,
  assetFiles: readonly string[] = [],
): Promise<{ expo: ExpoRoute | undefined; handOutUntil?: number }> {
  if (links === null) return { expo: buildExpoRoute(rows, apiBundleUrl, undefined, assetFiles) };
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
  );
  return { expo, ...(Number.isFinite(handOutUntil) ? { handOutUntil } : {}) };
}
