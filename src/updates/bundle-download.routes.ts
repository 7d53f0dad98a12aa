import { Type } from '@sinclair/typebox';
import { sendProblem } from '../http/error-handler.js';
import { problems } from '../http/schemas.js';
import type { App } from '../http/types.js';
import { notFound } from '../platform/errors.js';
import { matchesEtag, parseRange } from './byte-range.js';
import { BundleParams } from './updates.schemas.js';

// Content-addressed: the bytes behind a sha256 never change, so caches may keep them for a year.
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** GET (and HEAD) /bundles/{sha256}: the bundle bytes, with validators, caching and byte ranges. */
export async function bundleDownloadRoutes(app: App): Promise<void> {
  const { blobs } = app.deps;

  app.route({
    method: ['GET', 'HEAD'],
    url: '/bundles/:sha256',
    config: { public: true },
    schema: {
      tags: ['devices'],
      summary: 'Download a bundle by its sha256 (supports Range and If-None-Match)',
      security: [],
      params: BundleParams,
      response: {
        200: Type.Unsafe({ type: 'string', format: 'binary', description: 'the bundle bytes' }),
        206: Type.Unsafe({ type: 'string', format: 'binary', description: 'the requested byte range' }),
        304: Type.Unsafe<void>({ description: 'the cached copy is current (no body)' }),
        ...problems(400, 404, 416),
      },
    },
    handler: async (request, reply) => {
      const { sha256 } = request.params as { sha256: string };
      const size = await blobs.size(sha256);
      if (size === undefined) throw notFound('Bundle', 'bundle_not_found');
      const etag = `"${sha256}"`;
      reply.header('etag', etag).header('cache-control', IMMUTABLE).header('accept-ranges', 'bytes');
      if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();

      const ifRange = request.headers['if-range'];
      const range = ifRange && ifRange !== etag ? null : parseRange(request.headers.range, size);
      if (range === 'unsatisfiable') {
        reply.header('content-range', `bytes */${size}`);
        return sendProblem(reply, 416, 'range_not_satisfiable', `The bundle has ${size} bytes.`);
      }
      const start = range?.start ?? 0;
      const end = range?.end ?? size - 1;
      reply.type('application/octet-stream').header('content-length', String(end - start + 1));
      if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`);
      if (request.method === 'HEAD' || size === 0) return reply.send();
      return reply.send(blobs.createReadStream(sha256, { start, end }));
    },
  });
}
