import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BlobStore } from '../bundles/blob-store.js';
import { DOWNLOAD_HEADERS } from '../bundles/download-policy.js';
import type { ExpoPatch } from './expo-patches.js';

/** Request headers a launch asset's answer depends on. */
export const PATCH_VARY = 'A-IM, Expo-Current-Update-ID';

/**
 * Answers a launch asset request with a patch (RFC 3229 delta encoding, as expo-updates reads it): 226,
 * `IM: bsdiff`, `expo-base-update-id` (the update the patch applies to), never cached by anyone but the
 * device, and the patch's bytes with their length. The API sends them itself whatever the blob store:
 * patches are small, and the URL a client negotiates on is this one. False when the patch's bytes are not
 * in the store (the caller then answers the full bytes, as before any patch existed).
 */
export async function sendPatch(
  blobs: BlobStore,
  request: FastifyRequest,
  reply: FastifyReply,
  patch: ExpoPatch,
): Promise<boolean> {
  const size = await blobs.size(patch.sha256);
  if (size === undefined) {
    request.log.warn({ patch: patch.sha256 }, 'expo patch missing from the blob store; full bytes sent');
    return false;
  }
  reply.headers(DOWNLOAD_HEADERS);
  reply
    .code(226)
    .type('application/octet-stream')
    .header('im', 'bsdiff')
    .header('expo-base-update-id', patch.baseUpdateId)
    // An older expo-updates for Android read the base and the target from these (delta encoding's own).
    .header('delta-base', patch.baseUpdateId)
    .header('etag', `"${patch.targetUpdateId}"`)
    .header('cache-control', 'private, no-store')
    .header('vary', PATCH_VARY)
    .header('content-length', String(size));
  if (request.method === 'HEAD' || size === 0) {
    reply.send();
    return true;
  }
  reply.send(blobs.createReadStream(patch.sha256));
  return true;
}
