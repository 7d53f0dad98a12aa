import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Static } from '@sinclair/typebox';
import type { DeviceLimiter } from '../http/device-limiter.js';
import type { FastLane } from '../http/fast-lane.js';
import { answer, answerWhenSettled, passDeviceLimit } from '../http/lane-steps.js';
import { validatorCompiler } from '../http/validation.js';
import { EXPO_ANSWER_HEADERS, expoDeviceKey, manifestRequest } from './expo.routes.js';
import { ManifestHeaders, ManifestParams, UUID_ANY_CASE } from './expo.schemas.js';
import type { ExpoUpdatesService, ManifestAnswer } from './expo-updates.service.js';

const UUID_SEGMENT = new RegExp(UUID_ANY_CASE);

export interface ExpoManifestLaneOptions {
  /** The route's full path, with its `:app_id` segment. */
  path: string;
  expoUpdates: Pick<ExpoUpdatesService, 'answer'>;
  /** The route's own per-device limiter (device-edge.ts), so lane and route count in one bucket. */
  devices: DeviceLimiter;
}

/**
 * GET /expo/{app_id}/manifest on the fast lane (http/fast-lane.ts): the route's steps in the route's order
 * (path and header schemas, per-device limit, the service's answer, whose bytes were made when the app's
 * routing was loaded), without Fastify's request and reply objects and hooks. A path or headers that fail
 * their schema, a device over its limit: handed to the route, which answers them. An error of the answer
 * itself (a 406 of the protocol, an unknown app, a failed Redis call): handed over with the error, which
 * the route answers without asking again.
 */
export function expoManifestLane(options: ExpoManifestLaneOptions): FastLane {
  // Compiled as the route's schemas are, by the same compiler (the app id read in lower case and all).
  const compile = (schema: object, httpPart: 'params' | 'headers') =>
    validatorCompiler({ schema, method: 'GET', url: options.path, httpPart });
  const validParams = compile(ManifestParams, 'params');
  const validHeaders = compile(ManifestHeaders, 'headers');
  const lane: FastLane = {
    method: 'GET',
    path: options.path,
    // App ids in the UUID shape (any case): `/expo/assets/manifest` is the asset route's, an over-long
    // segment the router's 414; neither is a device route counting the address.
    param: UUID_SEGMENT,
    served: 0,
    serve(_query, req, res, ip, handOff, appIdText) {
      // The route has no query string schema and reads none: the lane ignores the (plain) query too.
      const params = { app_id: appIdText };
      if (validParams(params) !== true) return handOff();
      // The headers object the route validates and reads (Fastify's request.headers is Node's).
      const headers = req.headers;
      if (validHeaders(headers) !== true) return handOff();
      const appId = (params as Static<typeof ManifestParams>).app_id;
      if (!passDeviceLimit(req, options.devices, expoDeviceKey(ip, appId, headers['eas-client-id'])))
        return handOff();
      // The protocol's refusals (406) and the check's errors are handed over: the route answers them.
      answerWhenSettled(
        options.expoUpdates.answer(manifestRequest(appId, headers, { ip })),
        res,
        handOff,
        (m) => send(lane, res, m),
      );
    },
  };
  return lane;
}

function send(lane: FastLane, res: ServerResponse, manifest: ManifestAnswer): void {
  if (manifest.status === 204) {
    answer(lane, res, 204, EXPO_ANSWER_HEADERS);
    return;
  }
  const headers: OutgoingHttpHeaders = {
    ...EXPO_ANSWER_HEADERS,
    'content-type': manifest.contentType,
    'content-length': manifest.body.length,
  };
  if (manifest.signature) headers['expo-signature'] = manifest.signature;
  answer(lane, res, 200, headers, manifest.body);
}
