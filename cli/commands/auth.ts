import { hostname } from 'node:os';
import type { OtaClient } from '@ota/client/client';
import { ApiError } from '@ota/client/errors';
import type { Command } from 'commander';
import { configPath, saveCliConfig } from '../config.js';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { act } from '../helpers.js';
import { findLocalServer } from '../local-server.js';
import { promptHidden, promptLine, readStdin } from '../prompt.js';
import { asUser, type SigninOptions, signInAsUser } from './user-session.js';

export function registerAuthCommands(program: Command): void {
  program
    .command('login')
    .description(
      'Sign in with e-mail and password and store an API key made for this machine (or store --api-key)',
    )
    .option('--email <email>', 'account e-mail (asked when missing)')
    .option('--password-stdin', 'read the password from standard input')
    .option('--api-key <key>', 'store an existing API key instead of signing in')
    .option('--workspace <id>', 'act in this workspace instead of your default one')
    .option(
      '--create',
      'make the account (and its workspace) if no account has the e-mail; without it you are asked, and a ' +
        'run without a terminal refuses',
    )
    .addHelpText(
      'after',
      '\nAn e-mail with no account is never made into one silently: on a terminal you are asked first;\n' +
        'scripts pass --create. The server may allow only invited e-mails or none (SIGNUP).',
    )
    .action(act(login));

  program
    .command('password')
    .description(
      'Change your password; every other session of the account (the console in every browser) is ' +
        'signed out. API keys, such as the one `ota login` stored, keep working',
    )
    .option('--email <email>', 'account e-mail (default: the one used at login)')
    .option(
      '--password-stdin',
      'read the current password, then the new one, one per line, from standard input',
    )
    .action(act(changePassword));

  program
    .command('logout')
    .description(
      'Revoke the API key `ota login` made for this machine and forget it; with --everywhere, also sign ' +
        'out every session of the account (the console in every browser), asking for the password',
    )
    .option('--everywhere', 'end every identity token of the account, in every workspace')
    .option('--email <email>', 'account e-mail for --everywhere (default: the one used at login)')
    .option('--password-stdin', 'read the password from standard input')
    .action(act(logout));

  program.command('whoami').description('Show the workspace, role and credential in use').action(act(whoami));
}

async function changePassword(ctx: CliContext, options: SigninOptions): Promise<void> {
  let current: string | undefined;
  let next: string;
  if (options.passwordStdin) {
    const [first, second] = (await readStdin()).split(/\r?\n/);
    if (!first || !second) {
      throw new CliError('--password-stdin reads two lines: the current password, then the new one.');
    }
    current = first;
    next = second;
  } else {
    options.email ??= ctx.config.email ?? (await promptLine('E-mail: ', '--email'));
    current = await promptHidden('Current password: ', '--password-stdin');
    next = await promptHidden('New password: ', '--password-stdin');
    if (next !== (await promptHidden('New password again: ', '--password-stdin')))
      throw new CliError('The two new passwords differ; nothing was changed.');
  }
  if (next.length < 8) throw new CliError('The new password must be at least 8 characters.');
  const email = await asUser(ctx, { ...options, password: current }, async (user) => {
    await user.client.auth.changePassword(current, next);
    return user.email;
  });
  ctx.out.result({ email, password_changed: true, other_sessions_ended: true }, () => {
    ctx.out.line(`Password of ${email} changed; every other session of the account was signed out.`);
    ctx.out.line(
      'API keys keep working: `ota logout` revokes the one of this machine, `ota keys revoke` others.',
    );
  });
}

async function login(
  ctx: CliContext,
  options: SigninOptions & { apiKey?: string; workspace?: string },
): Promise<void> {
  if (options.apiKey) {
    const client = ctx.anonymousClient();
    client.setCredentials({ apiKey: options.apiKey });
    const me = await client.auth.me();
    const path = await saveCliConfig(
      { api_url: ctx.apiUrl, api_key: options.apiKey, workspace_id: me.workspace_id },
      ctx.env,
    );
    ctx.out.result({ workspace_id: me.workspace_id, role: me.role, config: path }, () => {
      ctx.out.line(`Logged in to workspace ${me.workspace_id} with an API key (role ${me.role}).`);
      ctx.out.line(`Stored in ${path}.`);
    });
    return;
  }

  // The sign-in only makes the machine's key: its identity token is signed out as soon as that is done.
  const create = options.create === true ? true : 'ask';
  const { user, workspaceId, created } = await asUser(ctx, { ...options, create }, async (user) => {
    if (options.workspace) await user.use(options.workspace);
    const workspaceId = user.workspaceId;
    let created: Awaited<ReturnType<OtaClient['apiKeys']['create']>>;
    try {
      created = await user.client.apiKeys.create(workspaceId, { name: machineKeyName(ctx) });
    } catch (err) {
      // A new account on a server with a mail server confirms its address before it may make keys.
      if (err instanceof ApiError && err.code === 'email_unverified') {
        throw new CliError(`${err.detail} Then run \`ota login\` again.`, 1);
      }
      if (err instanceof ApiError && err.status === 403) {
        throw new CliError(
          `${err.detail} Ask an owner or admin for an API key and run \`ota login --api-key KEY\`.`,
          1,
        );
      }
      throw err;
    }
    // A second login on the same machine replaces its key rather than piling up keys: the one its config
    // names, and any other of this user's keys with this machine's name (a config lost or rewritten).
    const previous = ctx.config;
    if (previous.key_id && previous.workspace_id === workspaceId && previous.api_url === ctx.apiUrl) {
      await user.client.apiKeys.revoke(workspaceId, previous.key_id).catch(() => undefined);
    }
    await revokeSameName(user.client, workspaceId, user.email, created).catch(() => undefined);
    return { user, workspaceId, created };
  });
  const path = await saveCliConfig(
    {
      api_url: ctx.apiUrl,
      api_key: created.key,
      key_id: created.id,
      workspace_id: workspaceId,
      email: user.email,
    },
    ctx.env,
  );
  ctx.out.result(
    {
      email: user.email,
      workspace_id: workspaceId,
      account_created: user.created,
      api_key: { id: created.id, name: created.name, role: created.role },
      config: path,
    },
    () => {
      if (user.created) ctx.out.line(`Created the account ${user.email} and its workspace.`);
      ctx.out.line(`Logged in as ${user.email} (workspace ${workspaceId}).`);
      ctx.out.line(
        `API key "${created.name}" (${created.role}) created for this machine and stored in ${path}.`,
      );
    },
  );
}

async function logout(ctx: CliContext, options: SigninOptions & { everywhere?: boolean }): Promise<void> {
  const { config } = ctx;
  let revoked = false;
  let warning: string | undefined;
  // Every identity token of the account (a console left signed in, a token that may have leaked): the
  // password proves who asks, and the sign-in's own token ends with the rest.
  if (options.everywhere) {
    const user = await signInAsUser(ctx, options);
    await user.client.auth.signout({ everywhere: true });
  }
  if (config.api_key && config.key_id && config.workspace_id) {
    try {
      const client = ctx.anonymousClient();
      client.setCredentials({ apiKey: config.api_key });
      await client.apiKeys.revoke(config.workspace_id, config.key_id);
      revoked = true;
    } catch (err) {
      if (err instanceof ApiError && (err.status === 401 || err.status === 404))
        revoked = true; // already gone
      else
        warning = `Could not revoke the key on the server (${(err as Error).message}); revoke it with \`ota keys revoke ${config.key_id}\`.`;
    }
  }
  const hadKey = config.api_key !== undefined;
  await saveCliConfig(config.api_url ? { api_url: config.api_url } : {}, ctx.env);
  const everywhere = options.everywhere === true;
  ctx.out.result(
    {
      logged_out: hadKey,
      key_revoked: revoked,
      signed_out_everywhere: everywhere,
      config: configPath(ctx.env),
    },
    () => {
      ctx.out.line(hadKey ? `Logged out${revoked ? '; the API key was revoked' : ''}.` : 'Not logged in.');
      if (everywhere) ctx.out.line('Every session of the account was signed out.');
    },
  );
  if (warning) ctx.out.note(`Warning: ${warning}`);
}

async function whoami(ctx: CliContext): Promise<void> {
  ctx.requireKey();
  const me = await ctx.client.auth.me();
  const workspace = me.workspaces.find((w) => w.id === me.workspace_id);
  const data = {
    api_url: ctx.apiUrl,
    credential: ctx.keySource === 'OTA_API_KEY' ? 'api-key (OTA_API_KEY)' : 'api-key (config)',
    actor: 'api-key',
    email: me.user?.email ?? ctx.config.email ?? null,
    workspace_id: me.workspace_id,
    workspace_name: workspace?.name ?? null,
    plan: workspace?.plan ?? null,
    role: me.role,
  };
  ctx.out.result(data, () => {
    ctx.out.line(`Server:     ${data.api_url}`);
    ctx.out.line(`Workspace:  ${data.workspace_id}${data.workspace_name ? ` (${data.workspace_name})` : ''}`);
    if (data.plan) ctx.out.line(`Plan:       ${data.plan}`);
    ctx.out.line(`Role:       ${data.role}`);
    ctx.out.line(`Credential: ${data.credential}; actions are audited as "api-key"`);
    if (data.email) ctx.out.line(`Signed in:  ${data.email}`);
  });
}

/**
 * The name of the key `ota login` makes: the machine's; in a checkout that keeps its own login
 * (`.local/cli`, see configDir()), the machine's and the checkout's folder, so logins of two checkouts on
 * one machine never replace each other's keys.
 */
function machineKeyName(ctx: CliContext): string {
  const host = hostname() || 'ota-cli';
  const checkout = ctx.env.OTA_CONFIG_DIR ? undefined : findLocalServer();
  const name = checkout ? `${host} ${checkout.root}` : host;
  return name.length <= 100 ? name : `${name.slice(0, 99)}…`;
}

/** Revokes this user's other keys of the same name as `kept` (the machine's earlier logins). */
async function revokeSameName(
  client: OtaClient,
  workspaceId: string,
  email: string,
  kept: { id: string; name: string },
): Promise<void> {
  const { api_keys: keys } = await client.apiKeys.list(workspaceId);
  for (const key of keys) {
    if (key.id === kept.id || key.name !== kept.name) continue;
    if (key.created_by?.email.toLowerCase() !== email.toLowerCase()) continue;
    await client.apiKeys.revoke(workspaceId, key.id).catch(() => undefined);
  }
}
