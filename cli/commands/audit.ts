import type { AuditQuery } from '@ota/client/types';
import type { Command } from 'commander';
import { auditTable, WIDE_AUDIT_WIDTH } from '../audit-report.js';
import type { CliContext } from '../context.js';
import { act, parseNonNegativeInt, resolveApp } from '../helpers.js';

interface AuditOptions {
  action?: string;
  app?: string;
  limit?: string;
  offset?: string;
  wide?: boolean;
}

export function registerAuditCommand(program: Command): void {
  program
    .command('audit')
    .description('The workspace audit log, newest first (team plan)')
    .option('--action <action>', 'only this action, e.g. module.push')
    .option('--app <app>', 'only entries of this app (id or name)')
    .option('--limit <n>', 'entries per page, 1-200 (default 50)')
    .option('--offset <n>', 'entries to skip')
    .option('--wide', 'the app column and full actors, whatever the terminal width')
    .addHelpText(
      'after',
      '\nChanges made with an API key show as "api-key (key name, created by e-mail)": the actor stays' +
        "\n`api-key` and the entry's details.api_key names the key and the member who made it." +
        `\nThe table fits 100 columns; a terminal of ${WIDE_AUDIT_WIDTH} or more, or --wide, adds the app.`,
    )
    .action(act(audit));
}

async function audit(ctx: CliContext, options: AuditOptions): Promise<void> {
  ctx.requireKey();
  const query: AuditQuery = {};
  if (options.action) query.action = options.action;
  if (options.app) query.app_id = await resolveApp(ctx, options.app);
  // Range checks are the server's (limit 1-200); here only the number itself is checked.
  if (options.limit !== undefined) query.limit = parseNonNegativeInt(options.limit, '--limit');
  if (options.offset !== undefined) query.offset = parseNonNegativeInt(options.offset, '--offset');
  const page = await ctx.client.audit.list(query);
  ctx.out.result(page, () => {
    const wide = options.wide === true || ctx.out.width >= WIDE_AUDIT_WIDTH;
    const table = auditTable(page.entries, ctx.out.width, wide);
    ctx.out.table(table.head, table.rows);
    if (page.next_offset !== null) ctx.out.line(`More entries: ota audit --offset ${page.next_offset}`);
  });
}
