import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import { AppParams } from '../apps/apps.schemas.js';
import { problems } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';
import { AppError } from '../platform/errors.js';

const OCTET_STREAM = 'application/octet-stream';
/** How long, and how much more, a refused upload is read and discarded before the connection is cut. */
const LINGER_MS = 5_000;
const LINGER_BYTES = 64 * 1024 * 1024;

export async function bundlesRoutes(app: App): Promise<void> {
  const { bundles } = app.deps.services;

  // Bundles can be far larger than a JSON body: the route gets the raw request stream and stores it while
  // it arrives, so memory holds one chunk at a time. Scoped to this plugin; nowhere else takes raw bytes.
  app.addContentTypeParser(OCTET_STREAM, (_request, payload, done) => done(null, payload));

  app.put(
    '/apps/:app_id/bundles',
    {
      schema: {
        tags: ['bundles'],
        summary: `Upload bundle bytes (${OCTET_STREAM}); stored once per content (sha256); developer or above`,
        description:
          'Over BUNDLE_MAX_BYTES: 413. A zip whose files inflate past BUNDLE_MAX_UNZIPPED_BYTES together: 400 ' +
          '`bundle_too_large_unzipped`. An empty body: 400 `empty_bundle`.',
        params: AppParams,
        // Documents the raw body for OpenAPI; an empty schema never rejects the stream.
        consumes: [OCTET_STREAM],
        body: Type.Unknown({ description: 'The bundle bytes' }),
        response: {
          201: Type.Object({ sha256: Type.String(), size: Type.Integer() }),
          ...problems(400, 401, 403, 404, 413, 415),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      if (!(request.body instanceof Readable)) {
        throw new AppError(415, 'unsupported_media_type', `Send the bundle bytes as ${OCTET_STREAM}.`);
      }
      const length = request.headers['content-length'];
      try {
        const stored = await bundles.upload(
          principal,
          request.params.app_id,
          request.body,
          length === undefined ? undefined : Number(length),
        );
        return reply.status(201).send(stored);
      } catch (err) {
        discardRest(request.body, reply.raw);
        throw err;
      }
    },
  );
}

/**
 * After a refused upload the client may still be sending. Closing at once would reset the connection under
 * it, and it could lose the answer (EPIPE) before reading it; reading everything could take as long as the
 * client likes. So the rest is read and thrown away for a bounded time and size after the answer is sent
 * (a "lingering close"), then the connection is cut. A client that stops or finishes in time keeps it.
 */
function discardRest(body: Readable, response: ServerResponse): void {
  if (body.readableEnded || body.destroyed) return;
  let discarded = 0;
  let timer: NodeJS.Timeout | undefined;
  const cut = () => {
    done();
    body.destroy();
  };
  const onData = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER_BYTES) cut();
  };
  const done = () => {
    clearTimeout(timer);
    body.off('data', onData);
    body.off('end', done);
    body.off('close', done);
  };
  body.on('data', onData);
  body.once('end', done);
  body.once('close', done);
  body.on('error', () => {});
  body.resume();
  response.once('finish', () => {
    if (body.readableEnded || body.destroyed) return;
    timer = setTimeout(cut, LINGER_MS);
    timer.unref();
  });
}
