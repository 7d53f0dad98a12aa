import { DEFAULT_CHANNEL } from '@ota/shared/ids';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { act, resolveApp } from '../helpers.js';
import { PROJECT_FILE, writeProject } from '../project.js';

interface InitOptions {
  app?: string;
  channel: string;
}

export function registerInitCommand(program: Command): void {
  program
    .command('init')
    .description(`Write ${PROJECT_FILE} here (app id, default channel) so later commands need no --app`)
    .option('--app <app>', 'app id or name (default: the only app of the workspace)')
    .option('--channel <channel>', 'channel `ota release` uses by default', DEFAULT_CHANNEL)
    .addHelpText(
      'after',
      `\nEvery command that takes --app reads ${PROJECT_FILE} from this folder or the nearest one above it;` +
        "\n--app on the command line still wins. Commit the file with the app's code: it holds no secret.",
    )
    .action(act(init));
}

async function init(ctx: CliContext, options: InitOptions): Promise<void> {
  ctx.requireKey();
  const appId = options.app ? await resolveApp(ctx, options.app) : await onlyApp(ctx);
  // Reading the app proves the id belongs to this workspace before it is written down.
  const app = await ctx.client.apps.get(appId);
  const path = await writeProject(process.cwd(), { app_id: app.id, channel: options.channel });
  ctx.out.result({ path, app_id: app.id, app_name: app.name, channel: options.channel }, () =>
    ctx.out.line(`Wrote ${path}: app "${app.name}" (${app.id}), channel ${options.channel}.`),
  );
}

async function onlyApp(ctx: CliContext): Promise<string> {
  const { apps } = await ctx.client.apps.list();
  if (apps.length === 1) return apps[0]!.id;
  if (apps.length === 0)
    throw new CliError('This workspace has no app yet: `ota apps create "My App"` first.');
  throw new CliError(
    `This workspace has ${apps.length} apps; choose one with --app <id or name>: ${apps.map((a) => `"${a.name}"`).join(', ')}.`,
  );
}
