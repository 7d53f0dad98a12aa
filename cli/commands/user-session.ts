import type { OtaClient } from '@ota/client/client';
import { ApiError } from '@ota/client/errors';
import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { promptHidden, promptLine, promptYesNo, readStdin } from '../prompt.js';

export interface SigninOptions {
  email?: string;
  passwordStdin?: boolean;
  /** The password, already read (`ota password` reads both of its passwords from stdin at once). */
  password?: string;
  /**
   * An e-mail with no account: make one (true), ask on the terminal ('ask': `ota login`), or refuse (unset:
   * every other command; only `ota login` makes accounts, so a typo never does).
   */
  create?: boolean | 'ask';
}

/**
 * A signed-in user for one command. The CLI keeps no identity token (only an API key), so none may outlive
 * the command: `end()` signs out the token in use, and `use()` signs out the one it replaces.
 */
export interface UserSession {
  client: OtaClient;
  email: string;
  workspaceId: string;
  created: boolean;
  /** Acts in `workspaceId` from now on (a token for it; the earlier one is signed out). */
  use(workspaceId: string): Promise<void>;
  /** Signs out the token in use (quietly: it expires on its own should the server be unreachable). */
  end(): Promise<void>;
}

/** Runs `fn` as the user signed in with e-mail and password, and signs the session out after it. */
export async function asUser<T>(
  ctx: CliContext,
  options: SigninOptions,
  fn: (user: UserSession) => Promise<T>,
): Promise<T> {
  const user = await signInAsUser(ctx, options);
  try {
    return await fn(user);
  } finally {
    await user.end();
  }
}

/** Signs in with e-mail and password (flags, stdin or prompts); the caller ends the session it gets. */
export async function signInAsUser(ctx: CliContext, options: SigninOptions): Promise<UserSession> {
  const email = options.email ?? ctx.config.email ?? (await promptLine('E-mail: ', '--email'));
  if (!email) throw new CliError('An e-mail address is required (--email).');
  const password =
    options.password ??
    (options.passwordStdin ? await readStdin() : await promptHidden('Password: ', '--password-stdin'));
  if (!password) throw new CliError('A password is required (--password-stdin or the prompt).');
  const client = ctx.anonymousClient();
  const signedIn = await signinOrCreate(ctx, client, email, password, options.create);
  client.setCredentials({ token: signedIn.token });
  const session: UserSession = {
    client,
    email: signedIn.user.email,
    workspaceId: signedIn.workspace_id,
    created: signedIn.created,
    use: async (workspaceId) => {
      if (workspaceId === session.workspaceId) return;
      const switched = await client.auth.token(workspaceId);
      await client.auth.signout().catch(() => undefined);
      client.setCredentials({ token: switched.token });
      session.workspaceId = switched.workspace_id;
    },
    end: () => client.auth.signout().catch(() => undefined),
  };
  return session;
}

/**
 * Signs in without making an account, unless asked to: an e-mail with no account is a 404 from the
 * server (create: false), and only then does `ota login` offer to make one (or make it with --create).
 */
async function signinOrCreate(
  ctx: CliContext,
  client: OtaClient,
  email: string,
  password: string,
  create: boolean | 'ask' | undefined,
) {
  if (create === true) return client.auth.signin(email, password, { create: true });
  try {
    return await client.auth.signin(email, password, { create: false });
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 'account_not_found')) throw err;
    if (create !== 'ask') {
      throw new CliError(
        `No account has the e-mail ${email} on ${ctx.apiUrl}. Check it, or make one with \`ota login --create\`.`,
      );
    }
    if (!process.stdin.isTTY) {
      throw new CliError(
        `No account has the e-mail ${email} on ${ctx.apiUrl}. Check it; to make a new account (and its ` +
          'workspace) in a script, pass --create.',
      );
    }
    if (!(await promptYesNo(`No account has the e-mail ${email} on ${ctx.apiUrl}. Create one? [y/N] `))) {
      throw new CliError('No account was created.');
    }
    return client.auth.signin(email, password, { create: true });
  }
}
