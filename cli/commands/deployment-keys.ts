import { DEFAULT_CHANNEL } from '@ota/shared/ids';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { act, resolveApp } from '../helpers.js';
import { shortTime } from '../output.js';

/** `ota deployment-keys`: the keys react-native-code-push apps use (docs/guides/react-native-codepush.md). */
export function registerDeploymentKeyCommands(program: Command): void {
  const keys = program
    .command('deployment-keys')
    .description('CodePush deployment keys: each names an app and a channel');

  keys
    .command('create')
    .description(
      'Make a deployment key for a channel of the app (put it in the app as CodePushDeploymentKey)',
    )
    .option('--app <app>', 'app id or name (default: the app of .ota.json)')
    .option('--channel <channel>', 'channel the key serves', DEFAULT_CHANNEL)
    .action(
      act(async (ctx: CliContext, options: { app?: string; channel: string }) => {
        const appId = await resolveApp(ctx, options.app);
        const created = await ctx.client.deploymentKeys.create(appId, options.channel);
        ctx.out.result({ app_id: appId, ...created }, () =>
          ctx.out.line(`Deployment key for ${created.channel}: ${created.key}`),
        );
      }),
    );

  keys
    .command('list')
    .description('List the deployment keys of an app')
    .option('--app <app>', 'app id or name (default: the app of .ota.json)')
    .action(
      act(async (ctx: CliContext, options: { app?: string }) => {
        const appId = await resolveApp(ctx, options.app);
        const { deployment_keys: list } = await ctx.client.deploymentKeys.list(appId);
        ctx.out.result({ deployment_keys: list }, () =>
          ctx.out.table(
            ['key', 'channel', 'created'],
            list.map((k) => [k.key, k.channel, shortTime(k.created_at)]),
          ),
        );
      }),
    );

  keys
    .command('rm <key>')
    .description('Delete a deployment key; apps using it are refused from their next check')
    .option('--app <app>', 'app id or name (default: the app of .ota.json)')
    .action(
      act(async (ctx: CliContext, key: string, options: { app?: string }) => {
        const appId = await resolveApp(ctx, options.app);
        await ctx.client.deploymentKeys.remove(appId, key);
        ctx.out.result({ deleted: key }, () => ctx.out.line(`Deleted deployment key ${key}.`));
      }),
    );
}
