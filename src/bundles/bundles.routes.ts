import { Readable } from 'node:stream';
import { Type } from '@sinclair/typebox';
import { AppParams } from '../apps/apps.schemas.js';
import { problems } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';
import { AppError } from '../platform/errors.js';

const OCTET_STREAM = 'application/octet-stream';

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
        params: AppParams,
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
        // The unread rest of a refused upload is not drained: the connection closes after the answer.
        if (!request.body.readableEnded) reply.header('connection', 'close');
        throw err;
      }
    },
  );
}
