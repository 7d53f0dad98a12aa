import { ApiError } from '@ota/client/errors';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { act, resolveApp } from '../helpers.js';

const CHANNELS_HELP = `
A channel exists once it has a release; production always exists. allow-self-assign says whether a device
may move itself onto the channel at run time (Capacitor's channel_self and defaultChannel); production
always allows it. The channel an app is built for (the update check's channel, expo-channel-name, a
CodePush deployment key) is served whatever this says.
A pull request's preview: \`ota release --channel pr-123\` makes the channel (plans with channels), and
\`ota channels delete pr-123\` withdraws its releases and removes it when the pull request closes.`;

/** `ota channels`: an app's channels and whether devices may move themselves onto them. */
export function registerChannelCommands(program: Command): void {
  const channels = program
    .command('channels')
    .description("An app's channels and whether devices may move themselves onto them")
    .addHelpText('after', CHANNELS_HELP);

  channels
    .command('list', { isDefault: true })
    .description('List the channels of an app')
    .option('--app <app>', 'app id or name (default: the app of .ota.json)')
    .action(
      act(async (ctx: CliContext, options: { app?: string }) => {
        const appId = await resolveApp(ctx, options.app);
        const { channels: list } = await ctx.client.apps.channels(appId);
        ctx.out.result({ app_id: appId, channels: list }, () =>
          ctx.out.table(
            ['channel', 'devices may self-assign'],
            list.map((c) => [c.name, c.allow_device_self_assign ? 'yes' : 'no']),
          ),
        );
      }),
    );

  channels
    .command('self-assign <channel> <on|off>')
    .description('Allow (on) or refuse (off) devices moving themselves onto a channel')
    .option('--app <app>', 'app id or name (default: the app of .ota.json)')
    .action(
      act(async (ctx: CliContext, name: string, value: string, options: { app?: string }) => {
        if (value !== 'on' && value !== 'off') throw new CliError(`Say on or off, not "${value}".`);
        const appId = await resolveApp(ctx, options.app);
        const channel = await ctx.client.apps.setChannel(appId, name, {
          allow_device_self_assign: value === 'on',
        });
        ctx.out.result(channel, () =>
          ctx.out.line(
            `Devices ${channel.allow_device_self_assign ? 'may now move' : 'may no longer move'} themselves onto ${channel.name}.`,
          ),
        );
      }),
    );

  channels
    .command('delete <channel>')
    .description(
      "Delete a channel (a pull request's preview): withdraw its releases and remove it, with the devices " +
        'pinned to it and its CodePush deployment keys; production cannot be deleted',
    )
    .option('--app <app>', 'app id or name (default: the app of .ota.json)')
    .option('--if-exists', 'succeed when the channel does not exist (a preview that never got a release)')
    .action(
      act(async (ctx: CliContext, name: string, options: { app?: string; ifExists?: boolean }) => {
        const appId = await resolveApp(ctx, options.app);
        try {
          await ctx.client.apps.deleteChannel(appId, name);
        } catch (err) {
          if (!(options.ifExists && err instanceof ApiError && err.code === 'channel_not_found')) throw err;
          ctx.out.result({ app_id: appId, channel: name, deleted: false }, () =>
            ctx.out.line(`No channel ${name}: nothing to delete.`),
          );
          return;
        }
        ctx.out.result({ app_id: appId, channel: name, deleted: true }, () =>
          ctx.out.line(`Deleted channel ${name}; its releases are withdrawn.`),
        );
      }),
    );
}
