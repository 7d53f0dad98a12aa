import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { act, resolveApp } from '../helpers.js';
import { shortTime } from '../output.js';

export function registerAppCommands(program: Command): void {
  const apps = program.command('apps').description('Create and list apps');
  apps
    .command('create <name>')
    .description('Create an app')
    .action(
      act(async (ctx: CliContext, name: string) => {
        ctx.requireKey();
        const app = await ctx.client.apps.create(name);
        ctx.out.result(app, () => ctx.out.line(`Created app "${app.name}" (${app.id}).`));
      }),
    );
  apps
    .command('list')
    .description('List the apps of the workspace')
    .action(
      act(async (ctx: CliContext) => {
        ctx.requireKey();
        const { apps: list } = await ctx.client.apps.list();
        ctx.out.result({ apps: list }, () =>
          ctx.out.table(
            ['id', 'name', 'created'],
            list.map((a) => [a.id, a.name, shortTime(a.created_at)]),
          ),
        );
      }),
    );

  const fingerprints = program
    .command('fingerprints')
    .description('Native-shell fingerprints a release can target');
  fingerprints
    .command('add <fingerprint>')
    .description('Register a native-shell fingerprint for an app')
    .option('--app <app>', 'app id or name (default: the app of .ota.json)')
    .action(
      act(async (ctx: CliContext, fingerprint: string, options: { app?: string }) => {
        const appId = await resolveApp(ctx, options.app);
        const added = await ctx.client.apps.addFingerprint(appId, fingerprint);
        ctx.out.result({ app_id: appId, ...added }, () =>
          ctx.out.line(`Registered fingerprint ${added.fingerprint} for app ${appId}.`),
        );
      }),
    );
}
