import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { act, resolveApp } from '../helpers.js';
import { rollbackHints, STATUS_COLUMNS, statusRow } from '../status-report.js';

export function registerStatusCommand(program: Command): void {
  program
    .command('status')
    .description("Each release's rollout and health: targeted and received %, adoption, failure rate, counts")
    .requiredOption('--app <app>', 'app id or name')
    .option('--channel <channel>', 'only this channel')
    .action(
      act(async (ctx: CliContext, options: { app: string; channel?: string }) => {
        const appId = await resolveApp(ctx, options.app);
        const { modules } = await ctx.client.apps.modules(
          appId,
          options.channel ? { channel: options.channel } : {},
        );
        const hints = rollbackHints(modules);
        ctx.out.result({ app_id: appId, releases: modules, hints }, () => {
          ctx.out.table(STATUS_COLUMNS, modules.map(statusRow));
          for (const hint of hints) ctx.out.line(hint.message);
        });
      }),
    );
}
