import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { act, resolveApp } from '../helpers.js';
import {
  rollbackHints,
  STATUS_COLUMNS,
  STATUS_COLUMNS_NARROW,
  statusNotes,
  statusRow,
  statusRowNarrow,
  supersededIds,
  WIDE_STATUS_WIDTH,
} from '../status-report.js';

const STATUS_HELP = `
Columns:
  state      active; paused (no new device gets it, devices that run it keep it: ota resume); rolled back;
             superseded (a newer release at 100 % on the channel replaces it for every device)
  rollout    the rollout percentage: the share of the channel's devices the release targets
  received   devices that activated the release, as a share of the devices it targets (not of the
             whole channel): 51 % on a 30 % rollout means about half of that 30 %, some 15 % of the
             channel. A value above the rollout percentage is marked * and explained under the table.
  running    devices whose latest check says they run the release now: 0 once all have moved off
  adoption   (wide) activations / downloads over the release's life: it stays after devices leave it
  failing    errors / (activations + errors); past 2 % a hint names the rollback command
The table fits 100 columns; a terminal of ${WIDE_STATUS_WIDTH} or more, or --wide, adds the full id, adoption,
downloads, activations, errors and bytes served. Statistics count the device events stored when the table
is read ("Stats as of").`;

interface StatusOptions {
  app?: string;
  channel?: string;
  wide?: boolean;
}

export function registerStatusCommand(program: Command): void {
  program
    .command('status')
    .description(
      "Each release's rollout and health: what devices run now, targeted and received %, failure rate",
    )
    .option('--app <app>', 'app id or name (default: the app of .ota.json)')
    .option('--channel <channel>', 'only this channel')
    .option('--wide', 'every column, whatever the terminal width')
    .addHelpText('after', STATUS_HELP)
    .action(
      act(async (ctx: CliContext, options: StatusOptions) => {
        const appId = await resolveApp(ctx, options.app);
        const page = await ctx.client.apps.modules(
          appId,
          options.channel ? { channel: options.channel } : {},
        );
        const { modules } = page;
        const hints = rollbackHints(modules);
        const result = { app_id: appId, releases: modules, hints, stats_as_of: page.stats_as_of ?? null };
        ctx.out.result(result, () => {
          const wide = options.wide === true || ctx.out.width >= WIDE_STATUS_WIDTH;
          const superseded = supersededIds(modules);
          const rows = modules.map((m) =>
            wide ? statusRow(m, superseded.has(m.id)) : statusRowNarrow(m, superseded.has(m.id)),
          );
          ctx.out.table(wide ? STATUS_COLUMNS : STATUS_COLUMNS_NARROW, rows);
          for (const note of statusNotes(modules, page.stats_as_of)) ctx.out.line(note);
          for (const hint of hints) ctx.out.line(hint.message);
        });
      }),
    );
}
