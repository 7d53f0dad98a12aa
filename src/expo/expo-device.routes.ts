import type { IncomingHttpHeaders } from 'node:http';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BlobStore } from '../bundles/blob-store.js';
import { DOWNLOAD_HEADERS } from '../bundles/download-policy.js';
import type { DeviceClient } from '../edge/client-address.js';
import { deviceKey } from '../edge/device-key.js';
import { deviceRoute } from '../http/device-route.js';
import { problems } from '../http/schemas.js';
import type { App } from '../http/types.js';
import { notFound } from '../platform/errors.js';
import { sendBlob } from '../updates/blob-answer.routes.js';
import { isLaunchAssetFile } from './expo.assets.js';
import { type ExpoPlatform, servedTypeOf } from './expo.manifest.js';
import {
  AppAssetParams,
  ASSET_FILE_PATTERN,
  AssetParams,
  ManifestHeaders,
  ManifestParams,
} from './expo.schemas.js';
import type { ExpoPatch } from './expo-patches.js';
import type { ManifestAnswer, ManifestRequest } from './expo-updates.service.js';

const ASSET_FILE = new RegExp(ASSET_FILE_PATTERN);

/** The headers of every manifest answer (200 or 204) besides its type and signature. */
export const EXPO_ANSWER_HEADERS = {
  'expo-protocol-version': '1',
  'expo-sfv-version': '0',
  'cache-control': 'private, max-age=0',
} as const;

/** The manifest request of validated path parameters and headers, for the service. */
export function manifestRequest(
  appId: string,
  headers: IncomingHttpHeaders,
  client: DeviceClient,
): ManifestRequest {
  const h = headers as Record<string, string | undefined>;
  return {
    client,
    appId,
    protocolVersion: h['expo-protocol-version'],
    platform: h['expo-platform'] as ExpoPlatform,
    runtimeVersion: h['expo-runtime-version']!,
    channel: h['expo-channel-name'],
    accept: h.accept,
    easClientId: h['eas-client-id'],
    currentUpdateId: h['expo-current-update-id'],
    expectSignature: h['expo-expect-signature'],
    failedUpdateIds: h['expo-recent-failed-update-ids'],
  };
}

/** The Expo Updates v1 device endpoints: the manifest and the assets it names. */
export async function expoDeviceRoutes(app: App): Promise<void> {
  const { expoUpdates, expoAssets } = app.deps.services;
  const checks = app.deps.answers.checks.expo;

  deviceRoute(app, {
    method: 'GET',
    url: '/expo/:app_id/manifest',
    answers: checks,
    // Per app and eas-client-id, as /updates/check counts per app and device_id.
    deviceKey: (request) => deviceKey(request.params.app_id, request.headers['eas-client-id'], request.ip),
    schema: {
      tags: ['devices'],
      summary: 'Expo Updates protocol v1: the manifest (or directive) for an expo-updates client',
      description:
        'Set app.json `updates.url` to this URL. Answers multipart/mixed (a `manifest` or `directive` part) ' +
        'when the client accepts it, else the JSON manifest (application/expo+json or application/json) ' +
        'with `expo-signature`; 204 when there is nothing to do; 406 for another protocol version or an ' +
        'accept that none of those meets. No credential.',
      security: [],
      params: ManifestParams,
      headers: ManifestHeaders,
      response: {
        200: Type.Unsafe({
          type: 'string',
          format: 'binary',
          description: 'multipart/mixed, or the manifest as application/expo+json or application/json',
        }),
        204: Type.Unsafe<void>({ description: 'no update and no directive' }),
        ...problems(400, 404, 406, 429),
      },
    },
    // Not async: a manifest answered from memory is sent at once, without a promise (as /updates/check).
    handler: (request, reply) => {
      const answered = expoUpdates.answerNow(
        manifestRequest(request.params.app_id, request.headers, request),
      );
      const send = (answer: ManifestAnswer) => {
        reply.headers(EXPO_ANSWER_HEADERS);
        checks.decided(answer.status === 200 ? 'served' : (answer.refused ?? 'up_to_date'));
        if (answer.status === 204) return reply.code(204).send();
        if (answer.signature) reply.header('expo-signature', answer.signature);
        return reply.code(200).type(answer.contentType).send(answer.body);
      };
      return answered instanceof Promise ? answered.then(send) : send(answered);
    },
  });

  const assetResponses = {
    200: Type.Unsafe({ type: 'string', format: 'binary', description: 'the asset bytes' }),
    226: Type.Unsafe({
      type: 'string',
      format: 'binary',
      description:
        'a BSDIFF40 patch of the launch asset from the update named by Expo-Current-Update-ID (A-IM: bsdiff)',
    }),
    206: Type.Unsafe({ type: 'string', format: 'binary', description: 'the requested byte range' }),
    302: Type.Unsafe<void>({ description: 'the bytes are at `location` (BLOB_STORE=s3)' }),
    304: Type.Unsafe<void>({ description: 'the cached copy is current (no body)' }),
    ...problems(400, 404, 416, 429),
  };
  const sendAsset = async (
    appId: string | null,
    file: string,
    request: FastifyRequest,
    reply: FastifyReply,
  ) => {
    const [, sha256, ext] = ASSET_FILE.exec(file)!;
    const missing = notFound('Asset', 'asset_not_found');
    if (!(await expoAssets.referenced(appId, file))) throw missing;
    if (appId !== null && isLaunchAssetFile(file)) {
      // The answer depends on these headers (a patch or the full bytes): caches must key on them.
      reply.header('vary', PATCH_VARY);
      const patch = await expoAssets.patchFor(appId, file, request.headers);
      if (patch && (await sendPatch(app.deps.blobs, request, reply, patch))) {
        if (request.method === 'GET') expoAssets.servedPatch(appId, patch);
        return reply;
      }
      return sendBlob(app.deps, request, reply, sha256!, servedTypeOf(ext!), missing, (size) =>
        expoAssets.servedFull(appId, file, request.headers, size),
      );
    }
    return sendBlob(app.deps, request, reply, sha256!, servedTypeOf(ext!), missing);
  };

  deviceRoute(app, {
    method: ['GET', 'HEAD'],
    url: '/expo/:app_id/assets/:file',
    schema: {
      tags: ['devices'],
      summary: 'An asset of an Expo release of the app (immutable; supports Range and If-None-Match)',
      // Named: generated from the path it would be the old asset route's name (…/assets/{file}).
      operationId: 'getExpoAppAsset',
      description:
        'The URLs come from manifests: `<sha256>.<extension>`, a file some Expo release of the app names ' +
        '(404 otherwise). Served as a download that no browser runs (docs/operations/security.md). A ' +
        'launch asset asked for with `A-IM: bsdiff` and `Expo-Current-Update-ID` answers 226 and a patch ' +
        'from that update when one was made (docs/reference/delta-updates.md), the full bytes otherwise.',
      security: [],
      params: AppAssetParams,
      response: assetResponses,
    },
    handler: async (request, reply) => sendAsset(request.params.app_id, request.params.file, request, reply),
  });

  deviceRoute(app, {
    method: ['GET', 'HEAD'],
    url: '/expo/assets/:file',
    schema: {
      tags: ['devices'],
      summary: 'An asset named by a manifest pushed before asset URLs named their app',
      description:
        'Kept for devices holding such a manifest: a file some Expo release names (404 otherwise), served ' +
        'as the app-scoped URL serves it. New manifests use /expo/{app_id}/assets/{file}.',
      security: [],
      params: AssetParams,
      response: assetResponses,
    },
    handler: async (request, reply) => sendAsset(null, request.params.file, request, reply),
  });
}

/** Request headers a launch asset's answer depends on. */
const PATCH_VARY = 'A-IM, Expo-Current-Update-ID';

/**
 * Answers a launch asset request with a patch (RFC 3229 delta encoding, as expo-updates reads it): 226,
 * `IM: bsdiff`, `expo-base-update-id` and `delta-base` (the update the patch applies to), `ETag` (the update
 * it makes), never cached by anyone but the
 * device, and the patch's bytes with their length. The API sends them itself whatever the blob store:
 * patches are small, and the URL a client negotiates on is this one. False when the patch's bytes are not
 * in the store (the caller then answers the full bytes, as before any patch existed).
 */
async function sendPatch(
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
    // The bare id, not a quoted entity tag: expo-updates for Android (SDK 55, enableBsdiffPatchSupport)
    // lower-cases this header and compares it with the id it sent in If-Match, discarding the patch otherwise.
    .header('etag', patch.targetUpdateId)
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
