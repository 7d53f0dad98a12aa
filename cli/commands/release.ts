import type { Command } from 'commander';
import type { PushRelease } from '../../client/types.js';
import type { CliContext } from '../context.js';
import { act, defaultVersion, parsePercent, resolveApp } from '../helpers.js';
import { uploadBundle } from '../upload.js';

interface ReleaseOptions {
  app: string;
  channel: string;
  rollout: string;
  mandatory?: boolean;
  notes: string;
  version?: string;
  fingerprint?: string;
  targetBinaryRange?: string;
}

export function registerReleaseCommands(program: Command): void {
  program
    .command('release <bundle>')
    .description('Upload a bundle file and push it as a release')
    .requiredOption('--app <app>', 'app id or name')
    .option('--channel <channel>', 'channel to release to', 'production')
    .option('--rollout <pct>', 'percentage of devices to reach, 0-100', '100')
    .option('--mandatory', 'devices must install it before running the app', false)
    .option('--notes <text>', 'release notes', '')
    .option('--version <version>', 'version label (default: UTC date and time, e.g. 2026.11.22.0613)')
    .option('--fingerprint <fingerprint>', 'only devices with this native-shell fingerprint get it')
    .option(
      '--target-binary-range <range>',
      'only devices whose native app version is in this semver range get it (1.2.x, ^1.2.0, ">=1.0.0 <2.0.0")',
    )
    .action(act(release));

  program
    .command('rollout <module> <pct>')
    .description("Change a release's rollout percentage (0-100)")
    .action(
      act(async (ctx: CliContext, moduleId: string, pct: string) => {
        const rollout = parsePercent(pct);
        ctx.requireKey();
        const updated = await ctx.client.modules.setRollout(moduleId, rollout);
        ctx.out.result(updated, () =>
          ctx.out.line(
            `Release ${updated.version} (${updated.channel}) now reaches ${updated.rollout_pct} % of devices.`,
          ),
        );
      }),
    );

  program
    .command('rollback <module>')
    .description('Roll a release back; the previous release of its channel becomes active again')
    .action(
      act(async (ctx: CliContext, moduleId: string) => {
        ctx.requireKey();
        const result = await ctx.client.modules.rollback(moduleId);
        ctx.out.result(result, () =>
          ctx.out.line(
            `Rolled back ${result.rolled_back.version}; ${result.active.version} (${result.active.id}) ` +
              `is active on ${result.active.channel} again at ${result.active.rollout_pct} %.`,
          ),
        );
      }),
    );
}

async function release(ctx: CliContext, bundlePath: string, options: ReleaseOptions): Promise<void> {
  const rollout = parsePercent(options.rollout);
  const appId = await resolveApp(ctx, options.app);
  const progress = !ctx.json && process.stderr.isTTY === true;
  const bundle = await uploadBundle(ctx.client, appId, bundlePath, { progress });
  const input: PushRelease = {
    app_id: appId,
    version: options.version ?? defaultVersion(),
    sha256: bundle.sha256,
    channel: options.channel,
    rollout_pct: rollout,
    mandatory: options.mandatory === true,
    notes: options.notes,
  };
  if (options.fingerprint) input.fingerprint = options.fingerprint;
  if (options.targetBinaryRange !== undefined) input.target_binary_range = options.targetBinaryRange;
  const pushed = await ctx.client.modules.push(input);
  ctx.out.result({ ...pushed, bundle }, () => {
    ctx.out.line(
      `Released ${pushed.version} to ${pushed.channel} at ${pushed.rollout_pct} %` +
        `${pushed.mandatory ? ' (mandatory)' : ''}` +
        `${pushed.target_binary_range ? ` for native versions ${pushed.target_binary_range}` : ''}.`,
    );
    ctx.out.line(`Module ${pushed.id}, bundle sha256 ${bundle.sha256} (${bundle.size} bytes).`);
  });
}
