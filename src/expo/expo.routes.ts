import type { IncomingHttpHeaders } from 'node:http';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DeviceClient } from '../devices/client-address.js';
import { sendBlob } from '../http/blob-response.js';
import { deviceRoute } from '../http/device-edge.js';
import { deviceRateLimit, deviceRateLimitKey } from '../http/device-rate-limit.js';
import { laneFailure } from '../http/lane-handover.js';
import { iso, problems } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';
import type { DraftAnswer } from '../manifests/drafts.service.js';
import { notFound } from '../platform/errors.js';
import { releaseJson } from '../releases/releases.routes.js';
import { type ExpoPlatform, servedTypeOf } from './expo.manifest.js';
import {
  AppAssetParams,
  ASSET_FILE_PATTERN,
  AssetParams,
  DraftSchema,
  ExpoPushBody,
  ExpoReleaseSchema,
  ManifestHeaders,
  ManifestParams,
} from './expo.schemas.js';
import type { ManifestRequest } from './expo-updates.service.js';

const ASSET_FILE = new RegExp(ASSET_FILE_PATTERN);

/** The manifest endpoint's path under the API's prefix (a fast lane serves it too: expo.lane.ts). */
export const MANIFEST_PATH = '/expo/:app_id/manifest';

/** The headers of every manifest answer (200 or 204) besides its type and signature: route and lane alike. */
export const EXPO_ANSWER_HEADERS = {
  'expo-protocol-version': '1',
  'expo-sfv-version': '0',
  'cache-control': 'private, max-age=0',
} as const;

/** The manifest request of validated path parameters and headers, for the service: route and lane alike. */
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

/** The per-device limit's key: per app and eas-client-id, as /updates/check counts per app and device_id. */
export function expoDeviceKey(ip: string, appId: unknown, easClientId: unknown): string {
  return deviceRateLimitKey({ ip, body: { app_id: appId, device_id: easClientId } });
}

export function draftJson(d: DraftAnswer) {
  return { ...d, created_at: iso(d.created_at)!, expires_at: iso(d.expires_at)! };
}

/** The Expo Updates v1 adapter: manifest, assets, and pushing an `npx expo export` as a release. */
export async function expoRoutes(app: App): Promise<void> {
  const { expoUpdates, expoReleases, expoAssets } = app.deps.services;
  const { blobs } = app.deps;

  app.get(
    MANIFEST_PATH,
    {
      // A device route (device-edge.ts): limited per client address too, strings made safe by replacement.
      config: {
        ...deviceRoute(app.deps.config.rateLimits.devicePerMinute),
        deviceLimit: {
          ...deviceRateLimit(app.deps.config.rateLimits.devicePerMinute),
          keyGenerator: (request) =>
            expoDeviceKey(
              request.ip,
              (request.params as { app_id?: unknown }).app_id,
              request.headers['eas-client-id'],
            ),
        },
      },
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
    },
    async (request, reply) => {
      // The fast lane already ran this request and it failed: answer its error, do not run it twice.
      const failed = laneFailure(request.raw);
      if (failed) throw failed.error;
      const answer = await expoUpdates.answer(
        manifestRequest(request.params.app_id, request.headers, request),
      );
      reply.headers(EXPO_ANSWER_HEADERS);
      if (answer.status === 204) return reply.code(204).send();
      if (answer.signature) reply.header('expo-signature', answer.signature);
      return reply.code(200).type(answer.contentType).send(answer.body);
    },
  );

  const assetResponses = {
    200: Type.Unsafe({ type: 'string', format: 'binary', description: 'the asset bytes' }),
    206: Type.Unsafe({ type: 'string', format: 'binary', description: 'the requested byte range' }),
    304: Type.Unsafe<void>({ description: 'the cached copy is current (no body)' }),
    ...problems(400, 404, 416),
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
    return sendBlob(blobs, request, reply, sha256!, servedTypeOf(ext!), missing);
  };

  app.route({
    method: ['GET', 'HEAD'],
    url: '/expo/:app_id/assets/:file',
    config: { public: true },
    schema: {
      tags: ['devices'],
      summary: 'An asset of an Expo release of the app (immutable; supports Range and If-None-Match)',
      // Named: generated from the path it would be the old asset route's name (…/assets/{file}).
      operationId: 'getExpoAppAsset',
      description:
        'The URLs come from manifests: `<sha256>.<extension>`, a file some Expo release of the app names ' +
        '(404 otherwise). Served as a download that no browser runs (docs/operations/security.md).',
      security: [],
      params: AppAssetParams,
      response: assetResponses,
    },
    handler: async (request, reply) => {
      const { app_id, file } = request.params as { app_id: string; file: string };
      return sendAsset(app_id, file, request, reply);
    },
  });

  app.route({
    method: ['GET', 'HEAD'],
    url: '/expo/assets/:file',
    config: { public: true },
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
    handler: async (request, reply) =>
      sendAsset(null, (request.params as { file: string }).file, request, reply),
  });

  app.post(
    '/expo/releases',
    {
      schema: {
        tags: ['releases'],
        summary: 'Push an `npx expo export` (its uploaded files) as one release; developer or above',
        description:
          'Without `key_id`: 201, the release. With `key_id`: 202, a draft holding the exact bytes to sign ' +
          "(each platform's manifest and the rollBackToEmbedded directive); the release exists once " +
          'PUT /modules/{id}/signatures brings every signature.',
        body: ExpoPushBody,
        response: { 201: ExpoReleaseSchema, 202: DraftSchema, ...problems(400, 401, 402, 403, 404) },
      },
    },
    async (request, reply) => {
      const result = await expoReleases.push(principalOf(request), request.body);
      if (result.kind === 'draft') return reply.status(202).send(draftJson(result.draft));
      const platforms = Object.keys(request.body.platforms).filter((p) => p === 'ios' || p === 'android');
      return reply.status(201).send({ ...releaseJson(result.release), expo: { platforms, signed: false } });
    },
  );
}
