import { Type } from '@sinclair/typebox';
import { AppParams } from '../apps/apps.schemas.js';
import { channelsExample } from '../http/examples.js';
import { answer, ref, withExample } from '../http/openapi.js';
import { problems } from '../http/schemas.js';
import { type App, principalOf } from '../http/types.js';
import { ChannelListSchema, ChannelParams, ChannelSchema, PatchChannelBody } from './channels.schemas.js';

/** An app's channels as a resource (src/channels/). */
export async function channelsRoutes(app: App): Promise<void> {
  const { channels } = app.deps.services;

  app.get(
    '/apps/:app_id/channels',
    {
      schema: {
        tags: ['releases'],
        summary: "The app's channels (production, and every channel that has a release) and their settings",
        operationId: 'listChannels',
        params: AppParams,
        response: {
          200: answer('The channels, production first', ChannelListSchema, channelsExample),
          ...problems(400, 401, 403, 404),
        },
      },
    },
    async (request) => ({ channels: await channels.list(principalOf(request), request.params.app_id) }),
  );

  app.patch(
    '/apps/:app_id/channels/:name',
    {
      schema: {
        tags: ['releases'],
        summary: 'Change whether devices may move themselves onto a channel; developer or above',
        description:
          'Governs a device that moves itself at run time (Capacitor `channel_self` and `defaultChannel`): ' +
          "only onto a channel that allows it. The channel an app is built for (the update check's " +
          '`channel`, `expo-channel-name`, a deployment key) is served whatever this says. production always ' +
          'allows it (false is a 400); a channel with no release is a 404; other channels need a plan with ' +
          'channels (402). Audited `channel.change`; the same value again records nothing.',
        operationId: 'updateChannel',
        params: ChannelParams,
        body: withExample(PatchChannelBody, { allow_device_self_assign: true }),
        response: {
          200: answer('The channel', ref(ChannelSchema), { name: 'beta', allow_device_self_assign: true }),
          ...problems(400, 401, 402, 403, 404),
        },
      },
    },
    async (request) =>
      channels.update(
        principalOf(request),
        request.params.app_id,
        request.params.name,
        request.body.allow_device_self_assign,
      ),
  );
  app.delete(
    '/apps/:app_id/channels/:name',
    {
      schema: {
        tags: ['releases'],
        summary: "Delete a channel and withdraw its releases (a pull request's preview); developer or above",
        description:
          'Withdraws every release of the channel (they stay in the history, inactive) and removes the ' +
          'channel with its setting, the devices pinned to it and its CodePush deployment keys (a build ' +
          'with one then gets 404 `deployment_key_not_found`). A device still asking for the channel (the ' +
          "update check's `channel`, `expo-channel-name`, Capacitor's `defaultChannel` or stored channel) " +
          'is served what production serves, until a push to the same name makes it a channel again. ' +
          'production cannot be deleted (400); a channel with no release is a 404. Audited ' +
          '`channel.delete` (details: the channel, the withdrawn releases, how many pinned devices and ' +
          'keys went).',
        operationId: 'deleteChannel',
        params: ChannelParams,
        response: { 204: Type.Null(), ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await channels.remove(principalOf(request), request.params.app_id, request.params.name);
      return reply.status(204).send(null);
    },
  );
}
