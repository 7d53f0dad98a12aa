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
  createdAt: Date;
  runtimeVersion: string;
  launchAsset: ExportFile;
  assets: readonly ExportFile[];
  extra: Record<string, unknown>;
}

// The launch asset is JavaScript (or Hermes bytecode, which expo-updates loads the same way); the
// reference server labels it application/javascript, and so do we whatever its extension.
const JAVASCRIPT = new Set(['js', 'hbc', 'bundle']);

/** The content type an asset of this extension is served and announced with. */
export function contentTypeOf(ext: string | null): string {
  if (ext === null) return 'application/javascript';
  const lower = ext.toLowerCase();
  if (JAVASCRIPT.has(lower)) return 'application/javascript';
  return mime.getType(lower) ?? 'application/octet-stream';
}

/** The protocol's `hash`: base64url (RFC 4648 section 5) of the SHA-256, without padding. */
export function base64UrlSha256(sha256Hex: string): string {
  return Buffer.from(sha256Hex, 'hex').toString('base64url');
}

/**
 * The immutable URL of an asset: its content address plus the extension that names its content type.
 * The launch asset gets `.bundle`.
 */
export function assetPath(file: Pick<ExportFile, 'sha256' | 'ext'>): string {
  return `/api/v1/expo/assets/${file.sha256}.${file.ext ?? 'bundle'}`;
}

function assetEntry(file: ExportFile, publicUrl: string): ManifestAsset {
  return {
    hash: base64UrlSha256(file.sha256),
    key: file.md5,
    contentType: contentTypeOf(file.ext),
    // The specification asks to omit fileExtension on the launch asset (clients pick their own).
    ...(file.ext !== null ? { fileExtension: `.${file.ext}` } : {}),
    url: `${publicUrl}${assetPath(file)}`,
  };
}

/** The manifest body: the fields of the specification, in its order, as compact JSON (UTF-8). */
export function manifestBytes(input: ManifestInput, publicUrl: string): Buffer {
  const manifest = {
    id: input.id,
    createdAt: input.createdAt.toISOString(),
    runtimeVersion: input.runtimeVersion,
    launchAsset: assetEntry(input.launchAsset, publicUrl),
    assets: input.assets.map((a) => assetEntry(a, publicUrl)),
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
