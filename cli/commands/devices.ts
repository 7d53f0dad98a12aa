import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { act, actInWorkspace, parseNonNegativeInt, resolveApp } from '../helpers.js';
import { shortTime } from '../output.js';
import { resolveModule } from '../refs.js';

interface ListOptions {
  limit?: string;
  offset?: string;
}

interface PinOptions {
  app?: string;
  channel?: string;
  release?: string;
}

const PIN_HELP = `
pin, unpin and pins work on one app's device overrides (developer keys and above; pins lists for viewers):
  ota devices pin <device-id> --channel beta       served as a device of beta (its buckets and rollouts)
  ota devices pin <device-id> --release 1.4.1      served that release whatever its bucket, rollout or pause,
                                                   while it can run it (fingerprint, native version)
The device id is the one its protocol sends: device_id, CodePush client_unique_id, Expo eas-client-id,
Capacitor device_id. At most 1,000 per app; channels other than production need a plan with channels.`;

/**
 * `ota devices list|release`: the devices counted against the workspace's device cap (admin keys);
 * `ota devices pin|unpin|pins`: devices pinned to a channel or a release of an app.
 */
export function registerDevicesCommands(program: Command): void {
  const devices = program
    .command('devices')
    .description(
      'Devices counted against the device cap (owners and admins), and devices pinned to a channel or release',
    )
    .addHelpText(
      'after',
      '\nOn a capped plan (hobby 100, pro 10,000 devices) a device that checks for updates takes a place\n' +
        'for the active window. Release one that is not really yours (a made-up id, a retired test phone)\n' +
        'and the next new device gets its place; a released device that checks again is counted again.\n' +
        PIN_HELP,
    );

  devices
    .command('list')
    .description('The counted devices, most recently seen first')
    .option('--limit <n>', 'devices per page, 1-200 (default 50)')
    .option('--offset <n>', 'devices to skip')
    .action(act(list));

  devices
    .command('release <device-id>')
    .description('Free the place of a counted device at once (audited as device.release)')
    .action(
      actInWorkspace(async (ctx: CliContext, ws: string, deviceId: string) => {
        await ctx.client.workspaces.releaseDevice(ws, deviceId);
        ctx.out.result({ released: deviceId }, () =>
          ctx.out.line(`Released ${deviceId}: its place under the device cap is free.`),
        );
      }),
    );

  devices
    .command('pin <device-id>')
    .description('Pin a device of an app to a channel or to a release (replaces its pin)')
    .option('--app <app>', 'app id or name (default: the app of .ota.json)')
    .option('--channel <channel>', 'serve the device as a device of this channel')
    .option('--release <release>', 'serve the device this release (id, id prefix or version)')
    .addHelpText('after', PIN_HELP)
    .action(act(pin));

  devices
    .command('unpin <device-id>')
    .description("Remove a device's pin: it is served as any device again")
    .option('--app <app>', 'app id or name (default: the app of .ota.json)')
    .action(
      act(async (ctx: CliContext, deviceId: string, options: { app?: string }) => {
        const appId = await resolveApp(ctx, options.app);
        await ctx.client.deviceOverrides.remove(appId, deviceId);
        ctx.out.result({ unpinned: deviceId }, () => ctx.out.line(`Unpinned ${deviceId}.`));
      }),
    );

  devices
    .command('pins')
    .description("The app's pinned devices, and whether each can be served its pinned release")
    .option('--app <app>', 'app id or name (default: the app of .ota.json)')
    .action(
      act(async (ctx: CliContext, options: { app?: string }) => {
        const appId = await resolveApp(ctx, options.app);
        const { overrides } = await ctx.client.deviceOverrides.list(appId);
        ctx.out.result({ app_id: appId, overrides }, () =>
          ctx.out.table(
            ['device', 'pinned to', 'served', 'since'],
            overrides.map((o) => [
              o.device_id,
              o.channel !== null ? `channel ${o.channel}` : `release ${o.module_id}`,
              o.servable === null
                ? o.channel !== null
                  ? '-'
                  : 'not checked yet'
                : o.servable
                  ? 'yes'
                  : `no: ${o.reason}`,
              shortTime(o.created_at),
            ]),
          ),
        );
      }),
    );
}

async function pin(ctx: CliContext, deviceId: string, options: PinOptions): Promise<void> {
  if ((options.channel === undefined) === (options.release === undefined))
    throw new CliError('Give either --channel <channel> or --release <release>.');
  const appId = await resolveApp(ctx, options.app);
  const target =
    options.release !== undefined
      ? { module_id: await resolveModule(ctx, options.release, { app: appId }) }
      : { channel: options.channel! };
  const pinned = await ctx.client.deviceOverrides.put(appId, deviceId, target);
  ctx.out.result(pinned, () =>
    ctx.out.line(
      pinned.channel !== null
        ? `Pinned ${deviceId} to channel ${pinned.channel}.`
        : `Pinned ${deviceId} to release ${pinned.module_id}.`,
    ),
  );
}

async function list(ctx: CliContext, options: ListOptions): Promise<void> {
  const ws = await ctx.workspaceId();
  const query: { limit?: number; offset?: number } = {};
  // Range checks are the server's (limit 1-200); here only the number itself is checked.
  if (options.limit !== undefined) query.limit = parseNonNegativeInt(options.limit, '--limit');
  if (options.offset !== undefined) query.offset = parseNonNegativeInt(options.offset, '--offset');
  const page = await ctx.client.workspaces.devices(ws, query);
  ctx.out.result(page, () => {
    ctx.out.table(
      ['device', 'last seen'],
      page.devices.map((d) => [d.device_id, shortTime(d.last_seen_at)]),
    );
    const cap = page.device_cap === null ? 'no cap' : `cap ${page.device_cap}`;
    ctx.out.line(`${page.total} devices counted over the last ${page.window_days} days (${cap}).`);
    if (page.next_offset !== null)
      ctx.out.line(`More devices: ota devices list --offset ${page.next_offset}`);
  });
}
