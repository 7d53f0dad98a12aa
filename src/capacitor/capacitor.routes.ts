import { isDeviceId } from '@ota/shared/ids';
import { Type } from '@sinclair/typebox';
import { deviceKey } from '../edge/device-key.js';
import { deviceRoute } from '../http/device-route.js';
import { problems } from '../http/schemas.js';
import type { App } from '../http/types.js';
import { badRequest } from '../platform/errors.js';
import { JSON_CONTENT_TYPE } from '../updates/answer-bytes.js';
import {
  CapacitorParams,
  ChannelGetAnswer,
  ChannelListAnswer,
  ChannelSetAnswer,
  ChannelSetBody,
  ChannelUnsetAnswer,
  InfoBody,
  InfoQuery,
  StatsAnswer,
  StatsBody,
  UpdatesAnswer,
  wellFormedStats,
} from './capacitor.schemas.js';
import type { CapacitorInfo, CapacitorStat } from './capacitor.service.js';

const BASE = '/capacitor/:app_id';
const TAGS = ['capacitor'];
const OK = Buffer.from('{"status":"ok"}');

type Params = { app_id: string };

/** The per-device limit's key: the app of the path and the device the body (or query) names. */
const keyOf = (request: { params: unknown; ip: string }, device: unknown) =>
  deviceKey((request.params as Params).app_id, device, request.ip);

function firstDevice(body: unknown): unknown {
  const first = Array.isArray(body) ? body[0] : body;
  return typeof first === 'object' && first !== null
    ? (first as { device_id?: unknown }).device_id
    : undefined;
}

/**
 * The three URLs of @capgo/capacitor-updater (API.md, "Capacitor"): `updateUrl`, `statsUrl` and
 * `channelUrl`, with the app's id in the path. No credential. Declared as device routes: per-address and
 * per-device limits (429 with Retry-After in seconds, which plugin 8.51.5 and later wait for).
 */
export async function capacitorRoutes(app: App): Promise<void> {
  updateCheckRoute(app);
  statsRoute(app);
  channelChoiceRoutes(app);
  channelListRoutes(app);
}

/** updateUrl: the plugin's info object in, an update (or `builtin`, or an error kind) out. */
function updateCheckRoute(app: App): void {
  const { capacitor, updates } = app.deps.services;
  const checks = app.deps.answers.checks.capacitor;

  deviceRoute(app, {
    method: 'POST',
    url: `${BASE}/updates`,
    answers: checks,
    deviceKey: (request) => keyOf(request, (request.body as { device_id?: unknown } | undefined)?.device_id),
    // A throttled check offers nothing: the `download_fail` plugin 8 sends for it is no release's error.
    limited: (request) =>
      updates.throttled(
        (request.params as Params).app_id,
        (request.body as { device_id?: unknown } | undefined)?.device_id,
      ),
    schema: {
      tags: TAGS,
      summary: 'Capacitor update check (updateUrl)',
      description:
        "The plugin's info object. An update `{version, url, checksum, session_key?, manifest?}`: the newest " +
        "release of the device's channel its bucket and version_build admit, that it can verify (a device " +
        'sending key_id gets only releases signed and encrypted with that key, never an unsigned checksum). ' +
        '`{version: "builtin"}` sends a device whose release was rolled back, with nothing else to run, back ' +
        'to the bundle built into the app. Anything else is an answer with `error` and `kind`. No credential.',
      security: [],
      params: CapacitorParams,
      body: InfoBody,
      response: { 200: UpdatesAnswer, ...problems(400, 404, 413, 415, 429) },
    },
    handler: async (request, reply) => {
      const { app_id } = request.params as Params;
      const { answer, decision } = await capacitor.updateCheck(
        app_id,
        request.body as CapacitorInfo,
        request,
      );
      checks.decided(decision);
      return reply.header('content-type', JSON_CONTENT_TYPE).send(answer as never);
    },
  });
}

/** statsUrl: one statistic or a batch, counted once per device, release and kind. */
function statsRoute(app: App): void {
  const { capacitor } = app.deps.services;

  deviceRoute(app, {
    method: 'POST',
    url: `${BASE}/stats`,
    deviceKey: (request) => keyOf(request, firstDevice(request.body)),
    schema: {
      tags: TAGS,
      summary: 'Capacitor statistics (statsUrl)',
      description:
        'One statistic or a batch of up to 200 from one device. `download_complete` counts a download, `set` ' +
        'an activation, `update_fail` and `app_launch_timeout` an error of the release `version_name` names ' +
        'on the channel the device is served from; `download_fail`, `checksum_fail` and `decrypt_fail` an ' +
        'error of the release the service last offered the device, whatever `version_name` says (after an ' +
        "answer that offered nothing: stored, no release's error). Each once per device, release and kind. " +
        'Other actions are taken and not counted.',
      security: [],
      params: CapacitorParams,
      body: StatsBody,
      response: { 200: StatsAnswer, ...problems(400, 404, 413, 415, 429) },
    },
    handler: async (request, reply) => {
      const { app_id } = request.params as Params;
      const body = request.body as CapacitorStat | unknown[];
      const stats = Array.isArray(body) ? (wellFormedStats(body) as CapacitorStat[]) : [body];
      if (stats.length === 0) {
        throw badRequest('No statistic of the batch is well formed.', 'invalid_request', { field: 'body' });
      }
      await capacitor.stats(app_id, stats, request);
      return reply.header('content-type', JSON_CONTENT_TYPE).send(OK as never);
    },
  });
}

const CHANNEL_DOC =
  ' A device moves itself only onto a channel that allows self-assignment (production always does). ' +
  'No credential.';

/** channelUrl's setChannel (POST) and getChannel (PUT). */
function channelChoiceRoutes(app: App): void {
  const { capacitorChannelSelf: channelSelf } = app.deps.services;

  deviceRoute(app, {
    method: 'POST',
    url: `${BASE}/channel_self`,
    deviceKey: (request) => keyOf(request, (request.body as { device_id?: unknown } | undefined)?.device_id),
    schema: {
      tags: TAGS,
      summary: 'Capacitor setChannel (channelUrl)',
      description:
        'Asks to join `channel`. Plugins below 5.34.0, 6.34.0 and 7.34.0 have it stored, for a device the ' +
        'device cap admits and within CAPACITOR_CHANNEL_ASSIGNMENTS_PER_APP and …_PER_ADDRESS_PER_HOUR ' +
        '(else `{error: "device_cap" | "new_device_limit" | "app_full" | "address_limit", message}`); later ' +
        `plugins keep it themselves.${CHANNEL_DOC}`,
      security: [],
      params: CapacitorParams,
      body: ChannelSetBody,
      response: { 200: ChannelSetAnswer, ...problems(400, 404, 413, 415, 429) },
    },
    handler: async (request, reply) => {
      const { app_id } = request.params as Params;
      const body = request.body as CapacitorInfo & { channel: string };
      const answer = await channelSelf.set(body, app_id, request);
      return reply.header('content-type', JSON_CONTENT_TYPE).send(JSON.stringify(answer));
    },
  });

  deviceRoute(app, {
    method: 'PUT',
    url: `${BASE}/channel_self`,
    deviceKey: (request) => keyOf(request, (request.body as { device_id?: unknown } | undefined)?.device_id),
    schema: {
      tags: TAGS,
      summary: 'Capacitor getChannel (channelUrl)',
      description: `The channel the device is served from.${CHANNEL_DOC}`,
      security: [],
      params: CapacitorParams,
      body: InfoBody,
      response: { 200: ChannelGetAnswer, ...problems(400, 404, 413, 415, 429) },
    },
    handler: async (request, reply) => {
      const { app_id } = request.params as Params;
      const answer = await channelSelf.get(app_id, request.body as CapacitorInfo);
      return reply.header('content-type', JSON_CONTENT_TYPE).send(JSON.stringify(answer));
    },
  });
}

/** channelUrl's listChannels (GET) and unsetChannel (DELETE). */
function channelListRoutes(app: App): void {
  const { capacitorChannelSelf: channelSelf } = app.deps.services;

  deviceRoute(app, {
    method: 'GET',
    url: `${BASE}/channel_self`,
    deviceKey: (request) => keyOf(request, (request.query as { device_id?: unknown } | undefined)?.device_id),
    schema: {
      tags: TAGS,
      summary: 'Capacitor listChannels (channelUrl)',
      description: `The channels a device may join by itself, the info object as the query.${CHANNEL_DOC}`,
      security: [],
      params: CapacitorParams,
      querystring: InfoQuery,
      response: { 200: ChannelListAnswer, ...problems(400, 404, 429) },
    },
    handler: async (request, reply) => {
      const { app_id } = request.params as Params;
      const answer = await channelSelf.list(app_id);
      return reply.header('content-type', JSON_CONTENT_TYPE).send(JSON.stringify(answer));
    },
  });

  deviceRoute(app, {
    method: 'DELETE',
    url: `${BASE}/channel_self`,
    deviceKey: (request) =>
      keyOf(
        request,
        (request.query as { device_id?: unknown } | undefined)?.device_id ?? firstDevice(request.body),
      ),
    schema: {
      tags: TAGS,
      summary: 'Capacitor unsetChannel (channelUrl, plugins before 7.34)',
      description:
        'Forgets the channel stored for the device. The info object as the query, or as a JSON body (as ' +
        'plugins before 7.34 send it). No credential.',
      security: [],
      params: CapacitorParams,
      querystring: Type.Partial(InfoQuery),
      response: { 200: ChannelUnsetAnswer, ...problems(400, 404, 413, 415, 429) },
    },
    handler: async (request, reply) => {
      const { app_id } = request.params as Params;
      const device = (request.query as { device_id?: unknown }).device_id ?? firstDevice(request.body);
      if (!isDeviceId(device)) {
        throw badRequest(
          'device_id (1-128 of A-Za-z0-9._:-) is required, in the query or the body.',
          'invalid_request',
          {
            field: 'device_id',
          },
        );
      }
      await channelSelf.unset(app_id, device);
      return reply.header('content-type', JSON_CONTENT_TYPE).send(OK as never);
    },
  });
}
