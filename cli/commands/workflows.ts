import type { Release, ReleaseDraft } from '@ota/client/types';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { act, parsePercent } from '../helpers.js';
import { resolveModule } from '../refs.js';
import { loadSigningKey, signDraft } from '../signing.js';

interface RefScope {
  app?: string;
  channel?: string;
}

interface PromoteOptions extends RefScope {
  to: string;
  rollout?: string;
  notes?: string;
  privateKey?: string;
  keyId?: string;
}

const REF_HELP = `
<release> is a release id, its first 6 or more characters, or its version (narrowed by --app and --channel,
the channel it is on).`;

const PAUSE_HELP = `${REF_HELP}

pause, rollout 0 % and rollback differ:
  ota pause <release>      stops it spreading: no device that does not run it yet gets it; devices that run
                           it keep it. Its rollout is kept; ota resume restores it as it was.
  ota rollout <release> 0  withdraws it: devices that got it move back to the release below at their next
                           check (Expo devices with nothing older to run go back to the embedded update).
  ota rollback <release>   deactivates it for good: the previous active release of the channel is served.`;

/** `ota promote`, `ota pause`, `ota resume` (docs/guides/apps-and-releases.md, "Promote, pause, pin"). */
export function registerWorkflowCommands(program: Command): void {
  program
    .command('promote <release>')
    .description(
      'Promote a release to another channel: a new release with the same bytes and metadata, no upload',
    )
    .requiredOption('--to <channel>', 'the channel to promote to')
    .option('--rollout <pct>', 'percentage of the target channel’s devices to reach, 0-100 (default 100)')
    .option('--notes <text>', "release notes of the new release (default: the release's own)")
    .option(
      '--private-key <pem>',
      'sign the new release on this machine with this RSA private key (required for a signed release)',
    )
    .option('--key-id <id>', 'with --private-key: the key id devices know the certificate by (default main)')
    .option('--app <app>', 'look the version up in this app (default: the app of .ota.json)')
    .option('--channel <channel>', 'look the version up on this channel (where the release is now)')
    .addHelpText(
      'after',
      `${REF_HELP}
The new release has its own statistics and names where it came from (promoted_from). A version already on
the target channel is refused. A signed release is promoted only with new signatures made here.
Example: ota promote 1.4.2 --channel staging --to production --rollout 10`,
    )
    .action(act(promote));

  for (const [name, paused] of [
    ['pause', true],
    ['resume', false],
  ] as const) {
    program
      .command(`${name} <release>`)
      .description(
        paused
          ? 'Pause a release: no new device gets it, devices that run it keep it'
          : 'Resume a paused release at its rollout',
      )
      .option('--app <app>', 'look the version up in this app (default: the app of .ota.json)')
      .option('--channel <channel>', 'look the version up on this channel')
      .addHelpText('after', PAUSE_HELP)
      .action(
        act(async (ctx: CliContext, ref: string, scope: RefScope) => {
          const moduleId = await resolveModule(ctx, ref, scope);
          const release = paused
            ? await ctx.client.modules.pause(moduleId)
            : await ctx.client.modules.resume(moduleId);
          ctx.out.result(release, () =>
            ctx.out.line(
              release.paused
                ? `Paused ${release.version} (${release.channel}): no new device gets it; devices that run it keep it.`
                : `Resumed ${release.version} (${release.channel}) at ${release.rollout_pct} %.`,
            ),
          );
        }),
      );
  }
}

async function promote(ctx: CliContext, ref: string, options: PromoteOptions): Promise<void> {
  const rollout = options.rollout === undefined ? undefined : parsePercent(options.rollout);
  if (options.keyId !== undefined && options.privateKey === undefined)
    throw new CliError('--key-id goes with --private-key.');
  const key = options.privateKey
    ? await loadSigningKey(options.privateKey, options.keyId ?? 'main')
    : undefined;
  const moduleId = await resolveModule(ctx, ref, { app: options.app, channel: options.channel });
  const input = {
    channel: options.to,
    ...(rollout !== undefined ? { rollout_pct: rollout } : {}),
    ...(options.notes !== undefined ? { notes: options.notes } : {}),
    ...(key ? { key_id: key.keyId } : {}),
  };
  const answer = await ctx.client.modules.promote(moduleId, input);
  const release = key
    ? await ctx.client.modules.sign((answer as ReleaseDraft).id, signDraft(answer as ReleaseDraft, key))
    : (answer as Release);
  ctx.out.result(release, () => {
    const from = release.promoted_from;
    ctx.out.line(
      `Promoted ${release.version}${from ? ` from ${from.channel}` : ''} to ${release.channel} at ` +
        `${release.rollout_pct} %${key ? ', signed' : ''}.`,
    );
    ctx.out.line(`Release ${release.id} (the same bytes: sha256 ${release.sha256}).`);
  });
}
