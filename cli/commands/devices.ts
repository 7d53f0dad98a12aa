import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { act, actInWorkspace, parseNonNegativeInt } from '../helpers.js';
import { shortTime } from '../output.js';

interface ListOptions {
  limit?: string;
  offset?: string;
}

/** `ota devices list|release`: the devices counted against the workspace's device cap (admin keys). */
export function registerDevicesCommands(program: Command): void {
  const devices = program
    .command('devices')
    .description('Devices counted against the device cap of the workspace (owners and admins)')
    .addHelpText(
      'after',
      '\nOn a capped plan (hobby 100, pro 10,000 devices) a device that checks for updates takes a place\n' +
        'for the active window. Release one that is not really yours (a made-up id, a retired test phone)\n' +
        'and the next new device gets its place; a released device that checks again is counted again.',
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
