import mime from 'mime';

/**
 * The manifest and directive bodies of the Expo Updates protocol v1 (expo/expo, docs technical-specs
 * expo-updates-1): built once per release and platform when it is pushed, stored byte for byte
 * (release_manifests) and never rebuilt, because a signature made on the developer's machine covers
 * exactly these bytes.
 */
export const EXPO_PLATFORMS = ['ios', 'android'] as const;
export type ExpoPlatform = (typeof EXPO_PLATFORMS)[number];

/** The only algorithm expo-updates verifies (codeSigningMetadata.alg). */
export const EXPO_SIGNATURE_ALG = 'rsa-v1_5-sha256';

/** One file of an export, as stored in the blob store. */
export interface ExportFile {
  /** Lowercase hex SHA-256: the blob's address. */
  sha256: string;
  /** Lowercase hex MD5: the asset key expo-updates maps the file by (`expo export` names files by it). */
  md5: string;
  /** Without the dot; null for the launch asset. */
  ext: string | null;
}

export interface ManifestAsset {
  hash: string;
  key: string;
  contentType: string;
  fileExtension?: string;
  url: string;
}

export interface ManifestInput {
  id: string;
  /** The app: asset URLs are under it. */
  appId: string;
  createdAt: Date;
  runtimeVersion: string;
  launchAsset: ExportFile;
  assets: readonly ExportFile[];
  extra: Record<string, unknown>;
}

// The launch asset is JavaScript (or Hermes bytecode, which expo-updates loads the same way); the
// reference server labels it application/javascript, and so do we whatever its extension.
const JAVASCRIPT = new Set(['js', 'hbc', 'bundle']);

/**
 * The content type an asset of this extension is announced with in the manifest (`contentType`). Neither
 * expo-updates client reads it (they keep the key, the extension, the URL and the hash), so it may name
 * the real type; what the asset URL answers with is `servedTypeOf`.
 */
export function contentTypeOf(ext: string | null): string {
  if (ext === null) return 'application/javascript';
  const lower = ext.toLowerCase();
  if (JAVASCRIPT.has(lower)) return 'application/javascript';
  return mime.getType(lower) ?? 'application/octet-stream';
}

/**
 * Types an asset URL answers with: images a browser shows only as an image, fonts and JSON, none of which
 * a browser runs. Everything else, JavaScript and Hermes bundles included, is application/octet-stream:
 * with `nosniff`, a browser then neither renders it as a page nor runs it from a `<script>` element, while
 * expo-updates and CodePush write any type to a file (they never read the header).
 */
const SERVED_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  bmp: 'image/bmp',
  heic: 'image/heic',
  heif: 'image/heif',
  ico: 'image/x-icon',
  ttf: 'font/ttf',
  otf: 'font/otf',
  woff: 'font/woff',
  woff2: 'font/woff2',
  json: 'application/json',
};

/** The Content-Type an asset of this extension is served with (never HTML, SVG, XHTML or JavaScript). */
export function servedTypeOf(ext: string | null): string {
  return (ext !== null && SERVED_TYPES[ext.toLowerCase()]) || 'application/octet-stream';
}

/** The protocol's `hash`: base64url (RFC 4648 section 5) of the SHA-256, without padding. */
export function base64UrlSha256(sha256Hex: string): string {
  return Buffer.from(sha256Hex, 'hex').toString('base64url');
}

/**
 * The immutable URL of an asset of an app: its content address plus the extension that names its type,
 * under the app, so the URL serves only files some release of that app references (expo.assets.ts). The
 * launch asset gets `.bundle`.
 */
export function assetPath(appId: string, file: Pick<ExportFile, 'sha256' | 'ext'>): string {
  return `/api/v1/expo/${appId}/assets/${assetFile(file)}`;
}

/** `<sha256>.<extension>`: the last segment of an asset URL, and how expo_assets names the file. */
export function assetFile(file: Pick<ExportFile, 'sha256' | 'ext'>): string {
  return `${file.sha256}.${file.ext ?? 'bundle'}`;
}

/** A permanent store URL of an asset's bytes (BUNDLE_BASE_URL), or undefined: the API's asset URL. */
export type PermanentAssetUrl = (sha256: string) => string | undefined;

function assetEntry(
  appId: string,
  file: ExportFile,
  publicUrl: string,
  storeUrl?: PermanentAssetUrl,
): ManifestAsset {
  // The launch asset's URL is always the service's: it answers patches (expo-patches.ts) and 302s to the
  // store for the full bytes.
  const stored = file.ext === null ? undefined : storeUrl?.(file.sha256);
  return {
    hash: base64UrlSha256(file.sha256),
    key: file.md5,
    contentType: contentTypeOf(file.ext),
    // The specification asks to omit fileExtension on the launch asset (clients pick their own).
    ...(file.ext !== null ? { fileExtension: `.${file.ext}` } : {}),
    url: stored ?? `${publicUrl}${assetPath(appId, file)}`,
  };
}

/**
 * The files a manifest body names (launch asset and assets, as `assetFile`), read from each entry's hash
 * and extension, whatever its URL looks like. Entries that are not of that shape are left out.
 */
export function referencedFiles(manifest: Buffer): string[] {
  const doc = JSON.parse(manifest.toString('utf8')) as {
    launchAsset?: { hash?: unknown };
    assets?: Array<{ hash?: unknown; fileExtension?: unknown }>;
  };
  const files: string[] = [];
  const add = (hash: unknown, ext: string | null) => {
    if (typeof hash !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(hash)) return;
    if (ext !== null && !/^[a-z0-9]{1,16}$/.test(ext)) return;
    files.push(assetFile({ sha256: Buffer.from(hash, 'base64url').toString('hex'), ext }));
  };
  add(doc.launchAsset?.hash, null);
  for (const asset of doc.assets ?? []) {
    const ext = typeof asset?.fileExtension === 'string' ? asset.fileExtension.replace(/^\./, '') : '';
    add(asset?.hash, ext.toLowerCase());
  }
  return [...new Set(files)];
}

/**
 * The manifest body: the fields of the specification, in its order, as compact JSON (UTF-8). Asset URLs
 * are the CDN's when BUNDLE_BASE_URL is set (they never expire, so a signature may cover them), else the
 * API's (which answer 302 to the store with BLOB_STORE=s3); the launch asset's is always the API's.
 */
export function manifestBytes(input: ManifestInput, publicUrl: string, storeUrl?: PermanentAssetUrl): Buffer {
  const manifest = {
    id: input.id,
    createdAt: input.createdAt.toISOString(),
    runtimeVersion: input.runtimeVersion,
    launchAsset: assetEntry(input.appId, input.launchAsset, publicUrl, storeUrl),
    assets: input.assets.map((a) => assetEntry(input.appId, a, publicUrl, storeUrl)),
    metadata: {},
    extra: input.extra,
  };
  return Buffer.from(JSON.stringify(manifest), 'utf8');
}

/**
 * A stored manifest as the manifest of another release with the same files (a promotion): the same fields,
 * order and assets, with the new release's `id` and `createdAt` (expo-updates orders updates by it).
 */
export function redatedManifest(body: Buffer, id: string, createdAt: Date): Buffer {
  const manifest = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  return Buffer.from(JSON.stringify({ ...manifest, id, createdAt: createdAt.toISOString() }), 'utf8');
}

/**
 * How much later than the release the rollBackToEmbedded directive is dated. expo-updates applies the
 * directive only when its commitTime is after the running update's (its manifest's createdAt).
 */
export const DIRECTIVE_DELAY_MS = 1000;

/** The release's rollBackToEmbedded directive, dated just after the release itself. */
export function directiveBytes(createdAt: Date): Buffer {
  const commitTime = new Date(createdAt.getTime() + DIRECTIVE_DELAY_MS).toISOString();
  return Buffer.from(JSON.stringify({ type: 'rollBackToEmbedded', parameters: { commitTime } }), 'utf8');
}
