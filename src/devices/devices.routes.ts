import { Type } from '@sinclair/typebox';
import { problems, WorkspaceParams } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';
import { DeviceParams, DevicesPage, DevicesQuery } from './devices.schemas.js';

/** The devices counted against the workspace's device cap: list and release (owner and admins). */
export async function devicesRoutes(app: App): Promise<void> {
  const { devices } = app.deps.services;

  app.get(
    '/workspaces/:id/devices',
    {
      schema: {
        tags: ['workspaces'],
        summary: 'The devices counted against the device cap, most recently seen first',
        description:
          "Owners and admins (users and admin API keys) of the workspace; other roles 403, another workspace's " +
          'id 403. The devices seen within the active window (`window_days`), each with its last check. ' +
          '`limit` 1-200 (default 50), `offset` >= 0; `next_offset` is null on the last page. On a plan ' +
          'without a cap nothing is counted, so the list is empty (apart from devices counted under an ' +
          'earlier capped plan, until they age out).',
        params: WorkspaceParams,
        querystring: DevicesQuery,
        response: { 200: DevicesPage, ...problems(400, 401, 403, 404) },
      },
    },
    async (request) => devices.list(principalOf(request), request.params.id, request.query),
  );

  app.delete(
    '/workspaces/:id/devices/:device_id',
    {
      schema: {
        tags: ['workspaces'],
        summary: 'Release a counted device: its place under the device cap is free at once',
        description:
          'Owners and admins. Audited as `device.release` with the device id and its last check. The ' +
          'device is not banned: if it checks again it is a new device, counted while there is room. ' +
          'A device that is not counted: 404 `device_not_counted`.',
        params: DeviceParams,
        response: { 204: Type.Null({ description: 'released' }), ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await devices.release(principalOf(request), request.params.id, request.params.device_id);
      return reply.status(204).send(null);
    },
  );
}
