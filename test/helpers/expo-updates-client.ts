import { createHash } from 'node:crypto';
import { bspatch } from './bspatch.js';

/** What a launch asset download gave: the bytes, and whether they came as a patch. */
export interface LaunchAssetDownload {
  bytes: Buffer;
  via: 'patch' | 'full';
  /** Bytes received over the wire, every attempt included. */
  received: number;
  /** Why a patch answer was not used, when one came. */
  patchFailure?: string;
}

export interface RunningUpdate {
  /** The launched update's id (a release, or the update embedded in the binary). */
  id: string;
  /** Its launch asset as the device holds it. */
  launchAsset: Buffer;
}

/**
 * Downloads a manifest's launch asset the way expo-updates 55+ does (FileDownloader.kt / .swift): when the
 * running update differs from the requested one, it asks with `A-IM: bsdiff` and the update ids; an answer
 * is a patch when it is 2xx with `IM: bsdiff` or status 226, and is used only when `expo-base-update-id`
 * names the running update; the patch is applied with a classic bspatch and the result's base64url
 * SHA-256 must equal the manifest's `hash`. On any failure it downloads the full asset once, without
 * `A-IM`. Redirects are followed, as the platform HTTP clients follow them.
 */
export async function downloadLaunchAsset(
  launchAsset: { url: string; hash: string },
  requestedId: string,
  running: RunningUpdate | undefined,
  extraHeaders: Record<string, string> = {},
): Promise<LaunchAssetDownload> {
  let received = 0;
  let patchFailure: string | undefined;
  if (running && running.id !== requestedId) {
    const res = await fetch(launchAsset.url, {
      headers: {
        ...extraHeaders,
        'a-im': 'bsdiff',
        'expo-current-update-id': running.id.toLowerCase(),
        'expo-requested-update-id': requestedId.toLowerCase(),
      },
    });
    const body = Buffer.from(await res.arrayBuffer());
    received += body.length;
    const isPatch =
      (res.status >= 200 && res.status < 300 && imListsBsdiff(res.headers.get('im'))) || res.status === 226;
    if (isPatch) {
      try {
        if (res.headers.get('expo-base-update-id')?.toLowerCase() !== running.id.toLowerCase())
          throw new Error('expo-base-update-id is not the running update');
        const patched = bspatch(running.launchAsset, body);
        if (hashOf(patched) !== launchAsset.hash) throw new Error('patched asset hash mismatch');
        return { bytes: patched, via: 'patch', received };
      } catch (err) {
        patchFailure = (err as Error).message;
      }
    } else if (res.ok) {
      if (hashOf(body) !== launchAsset.hash) throw new Error('full asset hash mismatch');
      return { bytes: body, via: 'full', received };
    }
  }
  const res = await fetch(launchAsset.url, { headers: extraHeaders });
  if (!res.ok) throw new Error(`launch asset download failed: ${res.status}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  received += bytes.length;
  if (hashOf(bytes) !== launchAsset.hash) throw new Error('full asset hash mismatch');
  return { bytes, via: 'full', received, ...(patchFailure ? { patchFailure } : {}) };
}

function imListsBsdiff(im: string | null): boolean {
  return (im ?? '').split(',').some((v) => v.trim().toLowerCase() === 'bsdiff');
}

/** The manifest's `hash`: base64url SHA-256 without padding. */
export function hashOf(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('base64url');
}

/**
 * Downloads a launch asset the way expo-updates for Android does with `enableBsdiffPatchSupport` (SDK 55,
 * FileDownloader.kt: createRequestForAsset, parsePatchResponseMetadata, validatePatchResponseMetadata):
 * the patch request also sends `If-None-Match: <running id>`, `If-Match: <requested id>` and
 * `Accept: application/vnd.bsdiff,*\/*`; an answer is a patch when its type is application/vnd.bsdiff,
 * `IM` lists bsdiff or it is a 226, and it is applied only when `IM` lists bsdiff, `delta-base` lower-cased
 * is the running update's id and `ETag` lower-cased is the requested update's id (no quotes stripped);
 * otherwise the full asset is downloaded again without those headers. A first answer that is not 2xx fails
 * the download (no second try), and redirects are followed with every header, as OkHttp follows them.
 */
export async function downloadLaunchAssetAndroid(
  launchAsset: { url: string; hash: string },
  requestedId: string,
  running: RunningUpdate | undefined,
): Promise<LaunchAssetDownload> {
  const base = { 'expo-platform': 'android', 'expo-protocol-version': '1', 'expo-api-version': '1' };
  const current = running?.id.toLowerCase();
  const requested = requestedId.toLowerCase();
  const full = async (received: number, patchFailure?: string): Promise<LaunchAssetDownload> => {
    const res = await fetch(launchAsset.url, { headers: { ...base, accept: 'application/javascript' } });
    const bytes = Buffer.from(await res.arrayBuffer());
    if (!res.ok) throw new Error(`launch asset download failed: ${res.status}`);
    if (hashOf(bytes) !== launchAsset.hash) throw new Error('full asset hash mismatch');
    return {
      bytes,
      via: 'full',
      received: received + bytes.length,
      ...(patchFailure ? { patchFailure } : {}),
    };
  };
  if (!running || current === requested) return full(0);
  const res = await fetch(launchAsset.url, {
    headers: {
      ...base,
      'expo-current-update-id': current!,
      'expo-requested-update-id': requested,
      'a-im': 'bsdiff',
      accept: 'application/vnd.bsdiff,*/*',
      'if-none-match': current!,
      'if-match': requested,
    },
  });
  const body = Buffer.from(await res.arrayBuffer());
  if (!res.ok && res.status !== 226) throw new Error(`launch asset download failed: ${res.status}`);
  const type = res.headers.get('content-type') ?? '';
  const im = imListsBsdiff(res.headers.get('im'));
  if (!type.startsWith('application/vnd.bsdiff') && !im && res.status !== 226) {
    if (hashOf(body) !== launchAsset.hash) throw new Error('full asset hash mismatch');
    return { bytes: body, via: 'full', received: body.length };
  }
  const deltaBase = res.headers.get('delta-base')?.toLowerCase();
  const etag = res.headers.get('etag')?.toLowerCase();
  if (!im || deltaBase === undefined || etag === undefined || deltaBase !== current || etag !== requested)
    return full(body.length, 'patch headers do not name the running and requested updates');
  const patched = bspatch(running.launchAsset, body);
  if (hashOf(patched) !== launchAsset.hash) return full(body.length, 'patched asset hash mismatch');
  return { bytes: patched, via: 'patch', received: body.length };
}
