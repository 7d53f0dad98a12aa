import { Type } from '@sinclair/typebox';
import { deviceRoute } from '../http/device-route.js';
import { problems } from '../http/schemas.js';
import type { App } from '../http/types.js';
import { sendBlob } from './blob-answer.routes.js';
import { BundleParams } from './updates.schemas.js';

/** GET (and HEAD) /bundles/{sha256}: the bundle bytes, with validators, caching and byte ranges. */
export async function bundleDownloadRoutes(app: App): Promise<void> {
  // A device endpoint limited per client address only: a download names no app or device.
  deviceRoute(app, {
    method: ['GET', 'HEAD'],
    url: '/bundles/:sha256',
    schema: {
      tags: ['devices'],
      summary: 'Download a bundle by its sha256 (supports Range and If-None-Match)',
      description:
        'With BLOB_STORE=s3: a 302 to the URL device answers carry (BUNDLE_BASE_URL, or a presigned URL).',
      security: [],
      params: BundleParams,
      response: {
        200: Type.Unsafe({ type: 'string', format: 'binary', description: 'the bundle bytes' }),
        206: Type.Unsafe({ type: 'string', format: 'binary', description: 'the requested byte range' }),
        302: Type.Unsafe<void>({ description: 'the bytes are at `location` (BLOB_STORE=s3)' }),
        304: Type.Unsafe<void>({ description: 'the cached copy is current (no body)' }),
        ...problems(400, 404, 416, 429),
      },
    },
    handler: async (request, reply) =>
      sendBlob(app.deps, request, reply, request.params.sha256, 'application/octet-stream'),
  });
}
