import { type Delivery, WEBHOOK_EVENTS, type WebhookEvent } from '@ota/client/types';
import { isUuid } from '@ota/shared/ids';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { act, actInWorkspace } from '../helpers.js';
import { shortTime } from '../output.js';
import { matchPrefix } from '../refs.js';

export function parseEvents(value: string): WebhookEvent[] {
  const events = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const unknown = events.filter((e) => !(WEBHOOK_EVENTS as readonly string[]).includes(e));
  if (events.length === 0 || unknown.length > 0) {
    throw new CliError(
      `--events takes a comma-separated list of ${WEBHOOK_EVENTS.join(', ')}` +
        (unknown.length > 0 ? `; unknown: ${unknown.join(', ')}` : ''),
    );
  }
  return [...new Set(events)] as WebhookEvent[];
}

/** A webhook named by its id or an id prefix (6+ characters), matched against the workspace's list. */
async function webhookId(ctx: CliContext, workspaceId: string, ref: string): Promise<string> {
  if (isUuid(ref)) return ref;
  const { webhooks } = await ctx.client.webhooks.list(workspaceId);
  return matchPrefix(webhooks, ref, 'webhook').id;
}

export function registerWebhookCommands(program: Command): void {
  const webhooks = program
    .command('webhooks')
    .description('Signed webhook endpoints of the workspace')
    .addHelpText(
      'after',
      '\nWebhooks and deliveries are named by their id or its first 6 or more characters.',
    );

  webhooks
    .command('add <url>')
    .description('Register an HTTPS endpoint; its signing secret is shown once')
    .option('--events <list>', 'comma-separated events', WEBHOOK_EVENTS.join(','))
    .action(
      act(async (ctx: CliContext, url: string, options: { events: string }) => {
        const events = parseEvents(options.events);
        const ws = await ctx.workspaceId();
        const created = await ctx.client.webhooks.create(ws, { url, events });
        ctx.out.result(created, () => {
          ctx.out.line(`Webhook ${created.id} -> ${created.url} (${created.events.join(', ')}).`);
          ctx.out.line(`Signing secret (shown only now): ${created.secret}`);
        });
      }),
    );

  webhooks
    .command('list')
    .description('List webhooks (never their secrets)')
    .action(
      actInWorkspace(async (ctx: CliContext, ws: string) => {
        const { webhooks: list } = await ctx.client.webhooks.list(ws);
        ctx.out.result({ webhooks: list }, () =>
          ctx.out.table(
            ['id', 'url', 'events', 'active', 'created'],
            list.map((w) => [
              w.id,
              w.url,
              w.events.join(', '),
              w.is_active ? 'yes' : 'no',
              shortTime(w.created_at),
            ]),
          ),
        );
      }),
    );

  webhooks
    .command('rm <id>')
    .description('Delete a webhook; delivery stops at once')
    .action(
      actInWorkspace(async (ctx: CliContext, ws: string, ref: string) => {
        const id = await webhookId(ctx, ws, ref);
        await ctx.client.webhooks.remove(ws, id);
        ctx.out.result({ id, deleted: true }, () => ctx.out.line(`Deleted webhook ${id}.`));
      }),
    );

  webhooks
    .command('test <id>')
    .description('Send a ping delivery to the endpoint')
    .action(
      actInWorkspace(async (ctx: CliContext, ws: string, ref: string) => {
        const id = await webhookId(ctx, ws, ref);
        const answer = await ctx.client.webhooks.test(ws, id);
        ctx.out.result(answer ?? { id, ping: 'sent' }, () =>
          ctx.out.line(`Ping sent to webhook ${id}; see \`ota webhooks deliveries ${id}\`.`),
        );
      }),
    );

  webhooks
    .command('deliveries <id>')
    .description('Recent deliveries of a webhook and their attempts')
    .action(
      actInWorkspace(async (ctx: CliContext, ws: string, ref: string) => {
        const id = await webhookId(ctx, ws, ref);
        const { deliveries } = await ctx.client.webhooks.deliveries(ws, id);
        ctx.out.result({ deliveries }, () =>
          ctx.out.table(
            ['id', 'event', 'status', 'attempts', 'last response or error', 'next attempt', 'created'],
            deliveries.map(deliveryRow),
          ),
        );
      }),
    );

  webhooks
    .command('redeliver <id> <delivery>')
    .description('Send a finished delivery again')
    .action(
      actInWorkspace(async (ctx: CliContext, ws: string, ref: string, deliveryRef: string) => {
        const id = await webhookId(ctx, ws, ref);
        const delivery = isUuid(deliveryRef)
          ? deliveryRef
          : matchPrefix((await ctx.client.webhooks.deliveries(ws, id)).deliveries, deliveryRef, 'delivery')
              .id;
        await ctx.client.webhooks.redeliver(ws, id, delivery);
        ctx.out.result({ id, delivery, redelivered: true }, () =>
          ctx.out.line(`Delivery ${delivery} queued again.`),
        );
      }),
    );
}

/**
 * A delivery as a table row. A failure without an HTTP answer (refused connection, a secret that cannot be
 * decrypted) has only its error: shown, shortened, instead of a bare "-", so the table says why.
 */
export function deliveryRow(d: Delivery): Array<string | number> {
  const error = d.last_error && d.last_error.length > 60 ? `${d.last_error.slice(0, 59)}…` : d.last_error;
  const last = d.response_status !== null ? `HTTP ${d.response_status}` : (error ?? '-');
  return [d.id, d.event, d.status, d.attempts, last, shortTime(d.next_attempt_at), shortTime(d.created_at)];
}
