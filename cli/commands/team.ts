import { type KeyRole, PLANS, type Plan, type Role } from '@ota/client/types';
import { PLAN_LABELS } from '@ota/shared/contracts';
import { isUuid } from '@ota/shared/ids';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { act, actInWorkspace, resolveApp } from '../helpers.js';
import { shortTime } from '../output.js';
import { asUser } from './user-session.js';

const MEMBER_ROLES: readonly Role[] = ['admin', 'developer', 'viewer'];
const KEY_ROLES: readonly KeyRole[] = ['admin', 'developer', 'viewer'];

function oneOf<T extends string>(value: string, allowed: readonly T[], what: string): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new CliError(`${what} must be one of ${allowed.join(', ')}, not "${value}".`);
  }
  return value as T;
}

/** A plan by its value (`team`) or by the name people see (`Enterprise`): one plan, one name. */
function planOf(value: string): Plan {
  const byName = PLANS.find((p) => PLAN_LABELS[p].toLowerCase() === value.toLowerCase());
  return byName ?? oneOf(value, PLANS, 'The plan');
}

/** A member given as its id or its e-mail. */
async function resolveMember(ctx: CliContext, ws: string, value: string): Promise<string> {
  if (isUuid(value)) return value;
  const { members } = await ctx.client.members.list(ws);
  const found = members.find((m) => m.email.toLowerCase() === value.toLowerCase());
  if (!found) throw new CliError(`No member with e-mail ${value} (see \`ota members list\`).`);
  return found.id;
}

/** The workspace's plan, members and API keys, in that order in `ota --help`. */
export function registerTeamCommands(program: Command): void {
  registerPlanCommands(program);
  registerMemberCommands(program);
  registerKeyCommands(program);
}

function registerPlanCommands(program: Command): void {
  const plan = program.command('plan').description("The workspace's billing plan");
  plan
    .command('show')
    .description("Show the workspace's plan and its use of the plan's limits (devices, members)")
    .action(
      actInWorkspace(async (ctx: CliContext, ws: string) => {
        const usage = await ctx.client.workspaces.usage(ws);
        const cap = (n: number | null) => (n === null ? 'unlimited' : String(n));
        const data = {
          workspace_id: ws,
          plan: usage.plan,
          devices: usage.distinct_devices,
          device_cap: usage.device_cap,
          members: usage.members,
          member_cap: usage.member_cap,
        };
        ctx.out.result(data, () => {
          ctx.out.line(`Workspace ${ws} is on the ${PLAN_LABELS[usage.plan]} plan (${usage.plan}).`);
          ctx.out.line(
            `Devices: ${usage.distinct_devices} of ${cap(usage.device_cap)} (last ${usage.window_days} days)`,
          );
          ctx.out.line(`Members: ${usage.members} of ${cap(usage.member_cap)}`);
          if (usage.plan !== 'team') ctx.out.note('`ota plan set team` lifts the limits (owner only).');
        });
      }),
    );
  plan
    .command('set <plan>')
    .description(
      'Change the plan: hobby (Hobby), pro (Startup) or team (Enterprise), by either name; the owner signs in for this (API keys cannot)',
    )
    .option('--email <email>', "owner's e-mail (default: the one used at login)")
    .option('--password-stdin', 'read the password from standard input')
    .action(
      act(async (ctx: CliContext, value: string, options: { email?: string; passwordStdin?: boolean }) => {
        const target = planOf(value);
        const ws = await ctx.workspaceId();
        // The specification reserves plan changes to the owner; an API key never has the owner role. The
        // owner's sign-in lasts for this change only.
        const result = await asUser(ctx, options, async (owner) => {
          await owner.use(ws);
          return owner.client.workspaces.setPlan(ws, target);
        });
        ctx.out.result(result, () =>
          ctx.out.line(
            `Workspace ${result.id} is now on the ${PLAN_LABELS[result.plan]} plan (${result.plan}).`,
          ),
        );
      }),
    );
}

function registerMemberCommands(program: Command): void {
  const members = program.command('members').description('People in the workspace');
  members
    .command('invite <email>')
    .description(
      'Invite someone: prints the invitation link (shown only now; e-mailed too when the server has SMTP). ' +
        'They open it, sign in or sign up with that e-mail and accept. Inviting again gives a new link.',
    )
    .option('--role <role>', 'admin, developer or viewer', 'developer')
    .action(
      act(async (ctx: CliContext, email: string, options: { role: string }) => {
        const role = oneOf(options.role, MEMBER_ROLES, 'The role') as Exclude<Role, 'owner'>;
        const ws = await ctx.workspaceId();
        const invited = await ctx.client.members.invite(ws, { email, role });
        const { invitation } = invited;
        ctx.out.result(invited, () => {
          ctx.out.line(`Invited ${invited.email} as ${invited.role} (${invited.id}).`);
          ctx.out.line(invitation.url);
          ctx.out.note(
            `${invitation.emailed ? 'The link was e-mailed to them too; it' : 'Send them this link: it'} works ` +
              `once, for ${invited.email} only, until ${shortTime(invitation.expires_at)}.`,
          );
        });
      }),
    );
  members
    .command('list')
    .description('List members and invitations')
    .action(
      actInWorkspace(async (ctx: CliContext, ws: string) => {
        const { members: list } = await ctx.client.members.list(ws);
        ctx.out.result({ members: list }, () =>
          ctx.out.table(
            ['id', 'email', 'role', 'status'],
            list.map((m) => [m.id, m.email, m.role, m.status]),
          ),
        );
      }),
    );
  members
    .command('role <member> <role>')
    .description("Change a member's role (member id or e-mail)")
    .action(
      act(async (ctx: CliContext, member: string, value: string) => {
        const role = oneOf(value, MEMBER_ROLES, 'The role');
        const ws = await ctx.workspaceId();
        const updated = await ctx.client.members.setRole(ws, await resolveMember(ctx, ws, member), role);
        ctx.out.result(updated, () => ctx.out.line(`${updated.email} is now ${updated.role}.`));
      }),
    );
  members
    .command('rm <member>')
    .description('Remove a member (member id or e-mail); their access ends at once')
    .action(
      actInWorkspace(async (ctx: CliContext, ws: string, member: string) => {
        const id = await resolveMember(ctx, ws, member);
        await ctx.client.members.remove(ws, id);
        ctx.out.result({ id, removed: true }, () => ctx.out.line(`Removed member ${member}.`));
      }),
    );
}

function registerKeyCommands(program: Command): void {
  const keys = program.command('keys').description('API keys of the workspace');
  keys
    .command('create <name>')
    .description('Create an API key (shown only once)')
    .option('--role <role>', 'admin, developer or viewer', 'admin')
    .option(
      '--app <app>',
      'limit the key to this app (id or name; repeat for more): it then acts on those apps only, never on ' +
        'members, keys, webhooks or the plan',
      (value: string, all: string[] = []) => [...all, value],
    )
    .option(
      '--expires <when>',
      'when the key stops working: 30d, 12w, 6m, 1y (at most a year) or an ISO date',
    )
    .addHelpText('after', KEYS_HELP)
    .action(act(createKey));
  keys
    .command('list')
    .description(
      'List live API keys (never the keys themselves): their apps, expiry, last use, and whose each is ' +
        '(removing that member revokes it)',
    )
    .action(
      actInWorkspace(async (ctx: CliContext, ws: string) => {
        const { api_keys } = await ctx.client.apiKeys.list(ws);
        const mine = ctx.keySource === 'config' ? ctx.config.key_id : undefined;
        ctx.out.result({ api_keys }, () =>
          ctx.out.table(
            ['id', 'name', 'role', 'apps', 'expires', 'created by', 'created', 'last used'],
            api_keys.map((k) => [
              k.id + (k.id === mine ? ' (this machine)' : ''),
              k.name,
              k.role,
              k.app_ids ? k.app_ids.join('\n') : 'all',
              k.expires_at ? shortTime(k.expires_at) : 'never',
              k.created_by?.email ?? '-',
              shortTime(k.created_at),
              shortTime(k.last_used_at),
            ]),
          ),
        );
      }),
    );
  keys
    .command('revoke <id>')
    .description('Revoke an API key; it stops working at once')
    .action(
      actInWorkspace(async (ctx: CliContext, ws: string, id: string) => {
        await ctx.client.apiKeys.revoke(ws, id);
        ctx.out.result({ id, revoked: true }, () => ctx.out.line(`Revoked API key ${id}.`));
        if (id === ctx.config.key_id && ctx.keySource === 'config') {
          ctx.out.note('That was the key of this machine: run `ota login` to sign in again.');
        }
      }),
    );
}

/** `ota keys create`: the key is printed once, with what limits it. */
async function createKey(
  ctx: CliContext,
  name: string,
  options: { role: string; app?: string[]; expires?: string },
): Promise<void> {
  const role = oneOf(options.role, KEY_ROLES, 'The role');
  const ws = await ctx.workspaceId();
  const appIds = options.app ? await Promise.all(options.app.map((a) => resolveApp(ctx, a))) : undefined;
  const expiresAt = options.expires === undefined ? undefined : expiryOf(options.expires);
  const created = await ctx.client.apiKeys.create(ws, {
    name,
    role,
    ...(appIds ? { app_ids: appIds } : {}),
    ...(expiresAt ? { expires_at: expiresAt } : {}),
  });
  ctx.out.result(created, () => {
    ctx.out.line(`API key "${created.name}" (${created.role}, id ${created.id}):`);
    ctx.out.line(created.key);
    if (created.app_ids) ctx.out.note(`Limited to the apps ${created.app_ids.join(', ')}.`);
    if (created.expires_at) ctx.out.note(`Expires ${created.expires_at}.`);
    ctx.out.note('The key is shown only now; store it safely.');
  });
}

const KEYS_HELP = `
A key for a CI pipeline: limited to the apps it ships, with the role it needs, expiring.
  ota keys create "github actions" --app Shop --role developer --expires 90d
A week or two before a key expires the workspace's webhooks get an api_key.expiring event.`;

const EXPIRY_UNITS: Record<string, number> = { d: 1, w: 7, m: 30, y: 365 };

/** `90d`, `12w`, `6m`, `1y` from now, or an ISO date: the ISO time the server is sent. */
export function expiryOf(value: string, now: number = Date.now()): string {
  const relative = /^(\d{1,4})([dwmy])$/.exec(value.trim());
  if (relative) {
    const days = Number(relative[1]) * EXPIRY_UNITS[relative[2]!]!;
    if (days < 1) throw new CliError('--expires must be at least a day away.');
    return new Date(now + days * 24 * 3600_000).toISOString();
  }
  const at = Date.parse(value);
  if (!Number.isFinite(at))
    throw new CliError(`--expires takes 90d, 12w, 6m, 1y or an ISO date, not "${value}".`);
  return new Date(at).toISOString();
}
