import { EXPO_PLATFORMS, type ExpoPlatform } from '../expo/expo.manifest.js';

/**
 * The launch asset's hex SHA-256 from a stored Expo manifest (its `launchAsset.hash`, base64url of the
 * digest: src/expo/expo.manifest.ts); null when the bytes are no such manifest.
 */
export function launchAssetOf(manifest: Buffer): string | null {
  try {
    const hash = (JSON.parse(manifest.toString('utf8')) as { launchAsset?: { hash?: unknown } }).launchAsset
      ?.hash;
    if (typeof hash !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(hash)) return null;
    return Buffer.from(hash, 'base64url').toString('hex');
  } catch {
    return null;
  }
}

/** Each platform's launch asset, from a release's stored manifest parts. */
export function launchAssetsOf(
  parts: Iterable<{ part: string; body: Buffer }>,
): Partial<Record<ExpoPlatform, string>> {
  const out: Partial<Record<ExpoPlatform, string>> = {};
  for (const { part, body } of parts) {
    if (!(EXPO_PLATFORMS as readonly string[]).includes(part)) continue;
    const sha256 = launchAssetOf(body);
    if (sha256) out[part as ExpoPlatform] = sha256;
  }
  return out;
}
