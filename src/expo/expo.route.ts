import type { ReleaseRow } from '../releases/releases.store.js';
import type { RoutedRelease } from '../routing/routing.types.js';
import { EXPO_PLATFORMS, type ExpoPlatform } from './expo.manifest.js';
import { expoSignatureHeader, type MultipartBody, multipartMixed } from './expo.multipart.js';
import type { ExpoPatchIndex, LaunchAssets } from './expo-patches.js';

/**
 * An app's Expo releases as the routing cache holds them. Every answer that does not depend on the device
 * is computed here, once per cache load, so a manifest request is a lookup plus a bucket: the manifest of
 * each release and platform as multipart and as JSON with its expo-signature, and each release's
 * rollBackToEmbedded directive.
 */
export interface ExpoPlatformAnswer {
  /** The manifest bytes: the JSON answer's body and the multipart answer's manifest part. */
  manifest: Buffer;
  /** The expo-signature value, or null for an unsigned release. */
  signature: string | null;
  multipart: MultipartBody;
}

export interface ExpoRelease {
  release: RoutedRelease;
  channel: string;
  active: boolean;
  /** The manifest's createdAt: expo-updates orders updates by it. */
  createdAtMs: number;
  /** The signing key's id, or null for an unsigned release. */
  keyId: string | null;
  platforms: Partial<Record<ExpoPlatform, ExpoPlatformAnswer>>;
  /** The multipart answer carrying this release's rollBackToEmbedded directive (signed like the release). */
  directive: MultipartBody;
}

export interface ExpoRoute {
  /** The app's Expo releases (the newest EXPO_ROUTE_LIMIT, active or not) by id. */
  releases: ReadonlyMap<string, ExpoRelease>;
  /** candidatesKey(channel, platform) -> the active releases serving that platform, newest first. */
  candidates: ReadonlyMap<string, readonly RoutedRelease[]>;
  /**
   * Files (`<sha256>.<ext>`) the app's Expo releases name, up to EXPO_ASSET_FILES_HELD: an asset URL naming
   * one is served without a query (expo.assets.ts).
   */
  assets: ReadonlySet<string>;
  /** Patches of launch assets (expo-patches.ts), answered by the launch asset's URL. */
  patches?: ExpoPatchIndex;
  /** Release id -> its launch asset per platform (hex sha256): which release a download is of. */
  launchAssets?: LaunchAssets;
}

/** How many of an app's Expo releases the cache holds; older ones are only ever superseded history. */
export const EXPO_ROUTE_LIMIT = 200;

/** How many of an app's asset files the cache holds (about 70 bytes each); the rest are asked for. */
export const EXPO_ASSET_FILES_HELD = 20_000;

export function candidatesKey(channel: string, platform: ExpoPlatform): string {
  return `${channel}\n${platform}`;
}

/** One row per release and part, newest release first (ExpoStore.routeRows). */
export interface ExpoRouteRow
  extends Omit<
    ReleaseRow,
    | 'seq'
    | 'workspace_id'
    | 'app_id'
    | 'target_binary_range'
    | 'rolled_back_at'
    | 'capacitor_checksum'
    | 'capacitor_session_key'
    | 'capacitor_key_id'
    | 'crc32'
    | 'promoted_from'
    | 'promoted_from_channel'
  > {
  part: 'ios' | 'android' | 'directive';
  body: Buffer;
  signature: string | null;
  key_id: string | null;
}

/** A store URL of an asset's bytes served as `contentType`, or undefined to keep the manifest's URL. */
export type AssetUrl = (sha256: string, contentType: string) => string | undefined;

/**
 * The service's own URL of a launch asset (`<PUBLIC_URL>/api/v1/expo/<app>/assets/<sha256>.bundle`): the
 * URL a device negotiates a patch on, so it is never the store's.
 */
export type LaunchUrl = (sha256: string) => string;

interface ManifestAssetJson {
  hash: string;
  contentType: string;
  url: string;
}

const hexOf = (asset: ManifestAssetJson) => Buffer.from(asset.hash, 'base64url').toString('hex');

/**
 * The assets (sha256 and type) of the unsigned manifests, launch assets aside: the ones whose URLs a load
 * may replace with the store's.
 */
export function unsignedAssets(
  rows: readonly ExpoRouteRow[],
): Array<{ sha256: string; contentType: string }> {
  const out = new Map<string, { sha256: string; contentType: string }>();
  for (const row of rows) {
    if (row.part === 'directive' || row.signature !== null) continue;
    for (const asset of JSON.parse(row.body.toString('utf8')).assets ?? []) {
      const sha256 = hexOf(asset);
      out.set(`${sha256} ${asset.contentType}`, { sha256, contentType: asset.contentType });
    }
  }
  return [...out.values()];
}

/**
 * An unsigned manifest with its asset URLs replaced by the store's (BLOB_STORE=s3: a CDN or presigned
 * URL), so devices fetch the bytes without the API, and its launch asset's URL by the service's own under
 * the app (a manifest pushed before may name the store's or the old URL without the app), where a device
 * negotiates a patch. A signed manifest is never rewritten: its signature covers its URLs, which then
 * answer 302 to the store.
 */
function withServedUrls(
  body: Buffer,
  assetUrl: AssetUrl | undefined,
  launchUrl: LaunchUrl | undefined,
): Buffer {
  const manifest = JSON.parse(body.toString('utf8')) as {
    launchAsset?: ManifestAssetJson;
    assets?: ManifestAssetJson[];
  };
  let changed = false;
  const replace = (asset: ManifestAssetJson, url: string | undefined) => {
    if (url !== undefined && url !== asset.url) {
      asset.url = url;
      changed = true;
    }
  };
  if (manifest.launchAsset) replace(manifest.launchAsset, launchUrl?.(hexOf(manifest.launchAsset)));
  for (const asset of manifest.assets ?? []) replace(asset, assetUrl?.(hexOf(asset), asset.contentType));
  return changed ? Buffer.from(JSON.stringify(manifest), 'utf8') : body;
}

export function buildExpoRoute(
  rows: readonly ExpoRouteRow[],
  bundleUrl: (sha256: string) => string,
  assetUrl?: AssetUrl,
  assetFiles: readonly string[] = [],
  launchUrl?: LaunchUrl,
): ExpoRoute | undefined {
  if (rows.length === 0) return undefined;
  const byId = new Map<string, ExpoRouteRow[]>();
  for (const row of rows) {
    const list = byId.get(row.id);
    if (list) list.push(row);
    else byId.set(row.id, [row]);
  }
  const releases = new Map<string, ExpoRelease>();
  const candidates = new Map<string, RoutedRelease[]>();
  // Map order is insertion order: newest release first, as the rows came.
  for (const [id, parts] of byId) {
    const first = parts[0]!;
    const directive = parts.find((p) => p.part === 'directive');
    if (!directive) continue;
    const release: RoutedRelease = {
      id,
      version: first.version,
      rolloutPct: first.rollout_pct,
      fingerprint: first.fingerprint,
      // Expo matches builds by runtime version (the fingerprint), never by native version ranges.
      binaryRange: null,
      mandatory: first.mandatory,
      paused: first.paused,
      notes: first.notes,
      sha256: first.sha256,
      size: first.size,
      url: bundleUrl(first.sha256),
      answers: new Map(),
    };
    const platforms: ExpoRelease['platforms'] = {};
    for (const platform of EXPO_PLATFORMS) {
      const row = parts.find((p) => p.part === platform);
      if (!row) continue;
      const signature = headerOf(row);
      const body =
        signature === null && (assetUrl || launchUrl)
          ? withServedUrls(row.body, assetUrl, launchUrl)
          : row.body;
      platforms[platform] = {
        manifest: body,
        signature,
        multipart: multipartMixed([{ name: 'manifest', body, signature }]),
      };
      if (first.active) {
        const key = candidatesKey(first.channel, platform);
        const list = candidates.get(key);
        if (list) list.push(release);
        else candidates.set(key, [release]);
      }
    }
    releases.set(id, {
      release,
      channel: first.channel,
      active: first.active,
      createdAtMs: first.created_at.getTime(),
      keyId: directive.key_id,
      platforms,
      directive: multipartMixed([
        { name: 'directive', body: directive.body, signature: headerOf(directive) },
      ]),
    });
  }
  return { releases, candidates, assets: new Set(assetFiles) };
}

function headerOf(row: Pick<ExpoRouteRow, 'signature' | 'key_id'>): string | null {
  return row.signature !== null && row.key_id !== null
    ? expoSignatureHeader(row.signature, row.key_id)
    : null;
}
