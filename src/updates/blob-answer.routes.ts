import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BlobLinks } from '../bundles/blob-links.js';
import type { BlobStore } from '../bundles/blob-store.js';
import { DOWNLOAD_HEADERS, servableType } from '../bundles/download-policy.js';
import { sendProblem } from '../http/error-handler.js';
import { notFound } from '../platform/errors.js';
import { matchesEtag, parseRange } from './byte-range.js';

// Content-addressed: the bytes behind a sha256 never change, so caches may keep them for a year.
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Answers GET or HEAD of a blob: the bytes with a strong ETag (the sha256), immutable caching, a single
 * byte range (206, or 416 past the end), If-Range and If-None-Match (304), and DOWNLOAD_HEADERS on every
 * answer. Bundle downloads and Expo assets share it; only the content type differs, and only a servable
 * one is kept. When the store has URLs of its own (S3: a CDN or a presigned URL), the answer is a 302
 * there instead, so the API never streams the bytes, except to a request with a precondition the store
 * would refuse.
 */
export async function sendBlob(
  { blobs, blobLinks }: { blobs: BlobStore; blobLinks: BlobLinks },
  request: FastifyRequest,
  reply: FastifyReply,
  sha256: string,
  contentType: string,
  missing = notFound('Bundle', 'bundle_not_found'),
  /** Told the size when the answer hands out the whole blob (a 302 to it, or all of its bytes). */
  onWhole?: (size: number) => void,
) {
  const size = await blobs.size(sha256);
  if (size === undefined) throw missing;
  // A client following the redirect sends its preconditions to the store, which compares them with its own
  // entity tag and answers 412 (expo-updates for Android sends `If-Match: <update id>` with a launch asset
  // request): such a request gets the bytes from here. The bytes behind a sha256 never change, so the
  // precondition is not evaluated here either.
  const link = hasPrecondition(request) ? null : await blobLinks.link(sha256, servableType(contentType));
  if (link) {
    // A presigned URL expires: the redirect must not outlive it in a cache.
    const cache = Number.isFinite(link.handOutUntil) ? 'private, max-age=0' : 'public, max-age=86400';
    if (request.method === 'GET') onWhole?.(size);
    return reply.code(302).header('location', link.url).header('cache-control', cache).send();
  }
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
  if (!range) onWhole?.(size);
  return reply.send(blobs.createReadStream(sha256, { start, end }));
}

/** If-Match or If-Unmodified-Since: what a store evaluates against its own object and may answer 412 to. */
function hasPrecondition(request: FastifyRequest): boolean {
  return request.headers['if-match'] !== undefined || request.headers['if-unmodified-since'] !== undefined;
}
