import { Type } from '@sinclair/typebox';
import { AppParams } from '../apps/apps.schemas.js';
import { overrideChannelExample, overrideExample, overrideListExample } from '../http/examples.js';
import { answer, ref, withExample } from '../http/openapi.js';
import { iso, problems } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';
import {
  DeviceOverrideSchema,
  OverrideListSchema,
  OverrideParams,
  PutOverrideBody,
} from './device-overrides.schemas.js';
import type { ListedOverride } from './device-overrides.service.js';
import type { DeviceOverrideRow } from './device-overrides.store.js';

const overrideJson = (o: DeviceOverrideRow) => ({
  device_id: o.device_id,
  channel: o.channel,
  module_id: o.release_id,
  created_at: iso(o.created_at)!,
});

const listedJson = (o: ListedOverride) => ({
  ...overrideJson(o),
  servable: o.servable,
  reason: o.reason,
  last_check_at: iso(o.last_check_at),
});

/** Device overrides of an app (src/overrides/): pin a device to a channel or a release. */
export async function deviceOverridesRoutes(app: App): Promise<void> {
  const { deviceOverrides } = app.deps.services;

  app.put(
    '/apps/:app_id/device-overrides/:device_id',
    {
      schema: {
        tags: ['devices'],
        summary: 'Pin a device to a channel or to a release of the app; developer or above',
        description:
          'Every device protocol honours it by its device id (`device_id`, `client_unique_id`, ' +
          '`eas-client-id`, Capacitor `device_id`). A channel other than production needs a plan with ' +
          "channels (402; for `module_id`, the release's channel); a channel no release was pushed to is " +
          "404 `channel_not_found`, naming the app's channels in `channels`. At most 1,000 per app (409 " +
          '`too_many_overrides`); a device pinned again is replaced. Audited `device.override`.',
        operationId: 'putDeviceOverride',
        params: OverrideParams,
        body: withExample(PutOverrideBody, overrideChannelExample),
        response: {
          200: answer('The override', ref(DeviceOverrideSchema), overrideExample),
          ...problems(400, 401, 402, 403, 404, 409),
        },
      },
    },
    async (request) => {
      const { params, body } = request;
      const row = await deviceOverrides.put(principalOf(request), params.app_id, params.device_id, body);
      return overrideJson(row);
    },
  );

  app.get(
    '/apps/:app_id/device-overrides',
    {
      schema: {
        tags: ['devices'],
        summary:
          "The app's device overrides, newest first; each release override says whether the device can be served its release",
        operationId: 'listDeviceOverrides',
        params: AppParams,
        response: {
          200: answer('The overrides, newest first', OverrideListSchema, overrideListExample),
          ...problems(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({
      overrides: (await deviceOverrides.list(principalOf(request), request.params.app_id)).map(listedJson),
    }),
  );

  app.delete(
    '/apps/:app_id/device-overrides/:device_id',
    {
      schema: {
        tags: ['devices'],
        summary: 'Remove a device override; developer or above (audited `device.override_remove`)',
        operationId: 'deleteDeviceOverride',
        params: OverrideParams,
        response: { 204: Type.Null(), ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { params } = request;
      await deviceOverrides.remove(principalOf(request), params.app_id, params.device_id);
      return reply.status(204).send(null);
    },
  );
}
