import { Command } from 'commander';
import { registerAppCommands } from './commands/apps.js';
import { registerAuditCommand } from './commands/audit.js';
import { registerAuthCommands } from './commands/auth.js';
import { registerReleaseCommands } from './commands/release.js';
import { registerStatusCommand } from './commands/status.js';
import { registerTeamCommands } from './commands/team.js';
import { registerWebhookCommands } from './commands/webhooks.js';

export const CLI_VERSION = '0.1.0';

/** The `ota` command tree. `--json` and `--api-url` are global: accepted before or after any subcommand. */
export function buildProgram(): Command {
  const program = new Command('ota')
    .description('Ship over-the-air updates: apps, releases, rollouts, rollback, status, webhooks, audit')
    .version(CLI_VERSION)
    .option('--json', 'print one JSON document (for scripts)')
    .option('--api-url <url>', 'service address (env OTA_API_URL; default http://127.0.0.1:8080)')
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError()
    .exitOverride();
  registerAuthCommands(program);
  registerAppCommands(program);
  registerReleaseCommands(program);
  registerStatusCommand(program);
  registerWebhookCommands(program);
  registerAuditCommand(program);
  registerTeamCommands(program);
  return program;
}
