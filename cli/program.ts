import { Command } from 'commander';
import { registerAppCommands } from './commands/apps.js';
import { registerAuditCommand } from './commands/audit.js';
import { registerAuthCommands } from './commands/auth.js';
import { registerChannelCommands } from './commands/channels.js';
import { registerDeploymentKeyCommands } from './commands/deployment-keys.js';
import { registerDevicesCommands } from './commands/devices.js';
import { registerInitCommand } from './commands/init.js';
import { registerReleaseCommands } from './commands/release.js';
import { registerStatusCommand } from './commands/status.js';
import { registerTeamCommands } from './commands/team.js';
import { registerWebhookCommands } from './commands/webhooks.js';
import { registerWorkflowCommands } from './commands/workflows.js';

export const CLI_VERSION = '0.1.0';

/**
 * `ota --version` / `ota -V`, recognised only before any subcommand. It is not a commander program option:
 * those are matched after the subcommand too, so `ota release … --version 2.0.0` would print the CLI
 * version instead of releasing.
 */
export function asksVersion(args: string[]): boolean {
  return args[0] === '--version' || args[0] === '-V';
}

/** The `ota` command tree. `--json` and `--api-url` are global: accepted before or after any subcommand. */
export function buildProgram(): Command {
  const program = new Command('ota')
    .description(
      'Ship over-the-air updates: apps, releases, rollouts, promote, pause, rollback, status, channels, webhooks, audit, devices',
    )
    .addHelpText('after', '\nota -V, --version prints the version of the CLI.')
    .option('--json', 'print one JSON document (for scripts)')
    .option(
      '--api-url <url>',
      'service address (env OTA_API_URL; in a checkout, the one its `npm start` listens on; default http://127.0.0.1:8080)',
    )
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError()
    .exitOverride();
  registerAuthCommands(program);
  registerAppCommands(program);
  registerInitCommand(program);
  registerReleaseCommands(program);
  registerWorkflowCommands(program);
  registerChannelCommands(program);
  registerDeploymentKeyCommands(program);
  registerStatusCommand(program);
  registerWebhookCommands(program);
  registerAuditCommand(program);
  registerTeamCommands(program);
  registerDevicesCommands(program);
  return program;
}
