import { DEFAULT_CHANNEL } from '@ota/shared/ids';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { act, parsePercent } from '../helpers.js';
import { resolveModule } from '../refs.js';
import { release } from './push-release.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

interface RefScope {
  app?: string;
  channel?: string;
}

const RELEASE_REF_HELP = `
<release> is a release id, its first 6 or more characters, or its version (versions are unique per app
and channel). A prefix matching several releases is refused with the list of matches.
Examples: ota rollout 1.0.2 50    ota rollback 3f9c2a`;

/** `ota release`, then `ota rollout` and `ota rollback`, in that order in `ota --help`. */
export function registerReleaseCommands(program: Command): void {
  registerReleaseCommand(program);
  registerRolloutCommands(program);
}

function registerReleaseCommand(program: Command): void {
  program
    .command('release [bundle]')
    .description(
      'Upload a bundle file and push it as a release; with --expo-export an `npx expo export` folder; with ' +
        '--capacitor a Capacitor web build (folder or zip)',
    )
    .option('--app <app>', 'app id or name (default: the app of .ota.json, see `ota init`)')
    .option('--channel <channel>', `channel to release to (default: .ota.json's, else ${DEFAULT_CHANNEL})`)
    .option('--rollout <pct>', 'percentage of devices to reach, 0-100', '100')
    .option('--mandatory', 'devices must install it before running the app', false)
    .option('--notes <text>', 'release notes', '')
    .option(
      '--version <version>',
      'version label, unique per app and channel (default: UTC date and time, e.g. 2026.11.22.0613; .2, .3… when that minute already has one)',
    )
    .option('--fingerprint <fingerprint>', 'only devices with this native-shell fingerprint get it')
    .option(
      '--target-binary-range <range>',
      'only devices whose native app version is in this semver range get it (1.2.x, ^1.2.0, ">=1.0.0 <2.0.0")',
    )
    .option('--expo-export <dir>', 'push an `npx expo export` folder (metadata.json) as one Expo release')
    .option('--runtime-version <version>', "with --expo-export: the app's runtime version (required)")
    .option(
      '--embedded-bundle <platform=file>',
      'with --expo-export: the launch asset embedded in the binary (ios=…/main.jsbundle); devices still ' +
        'running it download a patch (repeat per platform)',
      collect,
    )
    .option(
      '--embedded-update-id <platform=uuid>',
      "with --embedded-bundle: the embedded update's id, from the binary's app.manifest (repeat per platform)",
      collect,
    )
    .option(
      '--capacitor',
      'release a Capacitor web build (@capgo/capacitor-updater): [bundle] is the folder (zipped here) or its zip',
    )
    .option(
      '--private-key <pem>',
      "sign the release on this machine with this RSA private key (PEM); a zip also gets CodePush's .codepushrelease signature",
    )
    .option(
      '--key-id <id>',
      'the key id devices know the certificate by (codeSigningMetadata.keyid; default main); not with --capacitor',
    )
    .option(
      '--encrypt',
      'with --capacitor and --private-key: encrypt the bundle (AES-128-CBC) as the plugin expects',
    )
    .option(
      '--fail-if-incompatible',
      'refuse (exit 3) when no device seen in the last DEVICE_WINDOW_DAYS could run the release (its ' +
        'runtime version, fingerprint or binary range), before anything is uploaded',
    )
    .action(act(release));
}

function registerRolloutCommands(program: Command): void {
  program
    .command('rollout <release> <pct>')
    .description("Change a release's rollout percentage (0-100)")
    .addHelpText('after', RELEASE_REF_HELP)
    .option('--app <app>', 'look the version up in this app (default: the app of .ota.json)')
    .option('--channel <channel>', 'look the version up on this channel')
    .action(
      act(async (ctx: CliContext, ref: string, pct: string, scope: RefScope) => {
        const rollout = parsePercent(pct);
        const moduleId = await resolveModule(ctx, ref, scope);
        const updated = await ctx.client.modules.setRollout(moduleId, rollout);
        ctx.out.result(updated, () =>
          ctx.out.line(
            `Release ${updated.version} (${updated.channel}) now reaches ${updated.rollout_pct} % of devices.`,
          ),
        );
      }),
    );

  program
    .command('rollback <release>')
    .description('Roll a release back; the previous release of its channel becomes active again')
    .addHelpText('after', RELEASE_REF_HELP)
    .option('--app <app>', 'look the version up in this app (default: the app of .ota.json)')
    .option('--channel <channel>', 'look the version up on this channel')
    .action(
      act(async (ctx: CliContext, ref: string, scope: RefScope) => {
        const moduleId = await resolveModule(ctx, ref, scope);
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
