import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BlobStore } from '../bundles/blob-store.js';
import { notFound } from '../platform/errors.js';
import { matchesEtag, parseRange } from '../updates/byte-range.js';
import { sendProblem } from './error-handler.js';

// Content-addressed: the bytes behind a sha256 never change, so caches may keep them for a year.
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Blobs are bytes anyone with an account uploaded, served from the API's origin, which is the console's
 * unless BUNDLE_BASE_URL moves downloads elsewhere. None may become a page or a script there: no sniffing
 * of another type, a sandbox with nothing allowed should a browser render it anyway, and a download rather
 * than a page when a link is opened. expo-updates and CodePush never read these headers (they write the
 * bytes to a file and check the hash); docs/operations/security.md.
 */
export const DOWNLOAD_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "sandbox; default-src 'none'",
  'content-disposition': 'attachment',
} as const;

/** The only types a blob is served as: none of them is run by a browser. Anything else is octet-stream. */
const SERVABLE_TYPE =
  /^(?:image\/(?:png|jpeg|gif|webp|avif|bmp|heic|heif|x-icon)|font\/(?:ttf|otf|woff2?)|application\/(?:json|octet-stream))$/;

export function servableType(contentType: string): string {
  return SERVABLE_TYPE.test(contentType) ? contentType : 'application/octet-stream';
}

/**
 * Answers GET or HEAD of a blob: the bytes with a strong ETag (the sha256), immutable caching, a single
 * byte range (206, or 416 past the end), If-Range and If-None-Match (304), and DOWNLOAD_HEADERS on every
 * answer. Bundle downloads and Expo assets share it; only the content type differs, and only a servable
 * one is kept.
 */
export async function sendBlob(
  blobs: BlobStore,
  request: FastifyRequest,
  reply: FastifyReply,
  sha256: string,
  contentType: string,
  missing = notFound('Bundle', 'bundle_not_found'),
) {
  const size = await blobs.size(sha256);
  if (size === undefined) throw missing;
  const etag = `"${sha256}"`;
  reply.headers(DOWNLOAD_HEADERS);
  reply.header('etag', etag).header('cache-control', IMMUTABLE).header('accept-ranges', 'bytes');
  if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();

  const ifRange = request.headers['if-range'];
  const range = ifRange && ifRange !== etag ? null : parseRange(request.headers.range, size);
  if (range === 'unsatisfiable') {
    reply.header('content-range', `bytes */${size}`);
    return sendProblem(reply, 416, 'range_not_satisfiable', `The file has ${size} bytes.`);
  }
  const start = range?.start ?? 0;
  const end = range?.end ?? size - 1;
  reply.type(servableType(contentType)).header('content-length', String(end - start + 1));
  if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`);
  if (request.method === 'HEAD' || size === 0) return reply.send();
  return reply.send(blobs.createReadStream(sha256, { start, end }));
}
