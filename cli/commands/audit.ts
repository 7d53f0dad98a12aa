import type { Command } from 'commander';
import type { AuditQuery } from '../../client/types.js';
import type { CliContext } from '../context.js';
import { act, parseNonNegativeInt, resolveApp } from '../helpers.js';
import { shortTime } from '../output.js';

interface AuditOptions {
  action?: string;
  app?: string;
  limit?: string;
  offset?: string;
}

export function registerAuditCommand(program: Command): void {
  program
    .command('audit')
    .description('The workspace audit log, newest first (team plan)')
    .option('--action <action>', 'only this action, e.g. module.push')
    .option('--app <app>', 'only entries of this app (id or name)')
    .option('--limit <n>', 'entries per page, 1-200 (default 50)')
    .option('--offset <n>', 'entries to skip')
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
    ctx.out.table(
      ['time', 'actor', 'action', 'app', 'details'],
      page.entries.map((e) => [
        shortTime(e.created_at),
        e.actor,
        e.action,
        e.app_id ?? '-',
        compact(e.details),
      ]),
    );
    if (page.next_offset !== null) ctx.out.line(`More entries: ota audit --offset ${page.next_offset}`);
  });
}

function compact(details: unknown): string {
  if (details === null || details === undefined) return '';
  const text = JSON.stringify(details);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
