import type { Principal, Role } from '../access/principal.js';
import type { ApiKeysStore } from '../api-keys/api-keys.store.js';
import type { AuditStore } from '../audit/audit.store.js';
import type { SignupMode } from '../config/accounts.js';
import type { EmailVerificationService } from '../email-verification/email-verification.service.js';
import type { InvitationsStore } from '../invitations/invitations.store.js';
import type { MembersStore } from '../members/members.store.js';
import type { PasswordResetsStore } from '../password-reset/password-resets.store.js';
import { AppError, forbidden, unauthorized } from '../platform/errors.js';
import type { Transactional } from '../platform/postgres.js';
import type { WorkspacesStore } from '../workspaces/workspaces.store.js';
import { createAccount } from './account-creation.js';
import type { AuthStore, UserRow, WorkspaceMembershipRow } from './auth.store.js';
import { type Credentials, principalOf } from './credentials.js';
import type { IdentityTokens } from './identity-tokens.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { replacePassword } from './replace-password.js';
import type { SigninAttempt, SigninThrottle } from './signin-throttle.js';

export interface SigninResult {
  token: string;
  expires_at: string;
  workspace_id: string;
  user: { id: string; email: string };
  created: boolean;
}

/** The stores the auth service works on. */
export interface AuthStores {
  auth: AuthStore;
  apiKeys: ApiKeysStore;
  workspaces: WorkspacesStore;
  members: MembersStore;
  audit: AuditStore;
  /** Read at a first sign-in when SIGNUP is invite-only. */
  invitations: Pick<InvitationsStore, 'hasOpen'>;
  /** Open reset links are voided when the password changes. */
  passwordResets: Pick<PasswordResetsStore, 'voidOpen'>;
  transaction: Transactional;
}

export interface AuthOptions {
  tokens: IdentityTokens;
  /** Failed sign-ins per network and per account and network; without it, only the route's per-address rate. */
  throttle?: SigninThrottle | undefined;
  /** Who may make an account by signing in (SIGNUP); open when unset. */
  signup?: SignupMode | undefined;
  /** Asks a new account to prove its e-mail address (when a mail server is set); none asked when unset. */
  emailVerification?: Pick<EmailVerificationService, 'accountMade' | 'sendLink'> | undefined;
}

export interface SigninOptions {
  /**
   * Whether an unknown e-mail makes an account: unset, it does (the specification's first sign-in); false,
   * an unknown e-mail is a 404 `account_not_found` on an open server, so a typo does not make a second
   * account (`ota login` asks first); true, it does. Where SIGNUP refuses it, an unknown e-mail is a 401 as
   * a wrong password is.
   */
  create?: boolean | undefined;
  /** The caller's client network (IPv4 /24, IPv6 /48), what failures are counted against. */
  network?: string | undefined;
}

export interface PasswordChanged {
  token: string;
  expires_at: string;
  workspace_id: string;
}

export function createAuthService(stores: AuthStores, options: AuthOptions): AuthService {
  return new AuthService(stores, options);
}

export class AuthService {
  private readonly store: AuthStore;
  private readonly apiKeys: ApiKeysStore;
  private readonly tokens: IdentityTokens;
  private readonly throttle: SigninThrottle | undefined;
  private readonly signup: SignupMode;
  /** A hash no password matches, checked for unknown e-mails so they cost what a wrong password costs. */
  private decoy: Promise<string> | undefined;

  constructor(
    private readonly stores: AuthStores,
    private readonly options: AuthOptions,
  ) {
    this.store = stores.auth;
    this.apiKeys = stores.apiKeys;
    this.tokens = options.tokens;
    this.throttle = options.throttle;
    this.signup = options.signup ?? 'open';
  }

  /**
   * Sign-in; the first one for an e-mail creates the account and its personal workspace (plan hobby) where
   * SIGNUP lets it. Where it does not (closed, invite-only without an invitation), an unknown e-mail is
   * answered exactly as a wrong password, counted as one and after the same work, so the answer tells
   * nobody which e-mails have accounts. On an open server that is moot (signing in makes the account), and
   * `create: false` keeps its 404 `account_not_found`, which `ota login` asks on.
   */
  async signin(rawEmail: string, password: string, options: SigninOptions = {}): Promise<SigninResult> {
    const email = rawEmail.trim().toLowerCase();
    const attempt: SigninAttempt = { email, network: options.network ?? '-' };
    const existing = await this.store.findUserByEmail(email);
    if (existing) return this.signinExisting(existing, password, attempt);
    if (this.signup === 'open' && options.create === false) {
      throw new AppError(
        404,
        'account_not_found',
        'No account has this e-mail. Check it, or sign up (create: true; `ota login --create`).',
      );
    }
    if (this.signup === 'closed' || options.create === false) return this.refuseUnknown(password, attempt);

    const passwordHash = await hashPassword(password);
    const created = await createAccount(this.stores, email, passwordHash, {
      signup: this.signup,
      emailVerification: this.options.emailVerification,
    });
    if (created === 'refused') return this.refuseUnknown(password, attempt, true);
    if (created) await this.options.emailVerification?.sendLink(created.user);
    if (!created) {
      const winner = await this.store.findUserByEmail(email);
      if (!winner) throw unauthorized('Sign-in failed; try again.', 'invalid_credentials');
      return this.signinExisting(winner, password, attempt);
    }
    return this.signedIn(created.user, created.workspaceId, true);
  }

  /** The answer of a sign-in: a new identity token of the user for the workspace. */
  private async signedIn(user: UserRow, workspaceId: string, created: boolean): Promise<SigninResult> {
    const { token, expiresAt } = await this.tokens.issue({ subject: user.token_subject, workspaceId });
    return {
      token,
      expires_at: expiresAt.toISOString(),
      workspace_id: workspaceId,
      user: { id: user.id, email: user.email },
      created,
    };
  }

  private async signinExisting(
    user: UserRow,
    password: string,
    attempt: SigninAttempt,
  ): Promise<SigninResult> {
    const { id: userId, email } = user;
    // Before the password is checked: a network at its limit of failures answers 429 to any password.
    const failures = (await this.throttle?.check(attempt)) ?? 0;
    if (!(await verifyPassword(password, user.password_hash))) {
      await this.throttle?.failed(attempt);
      throw wrongCredentials();
    }
    await this.throttle?.succeeded(attempt, failures);
    const workspaceId = await this.store.defaultWorkspace(userId);
    if (!workspaceId) throw forbidden('This account belongs to no workspace.', 'no_workspace');
    await this.stores.transaction((tx) =>
      this.stores.audit.append(tx, {
        workspaceId,
        actor: email,
        action: 'login',
        details: { user_id: userId },
      }),
    );
    return this.signedIn(user, workspaceId, false);
  }

  /**
   * An e-mail no account has, where none may be made: the wrong-password answer, after a password check of
   * the same cost and counted in the same limits, so neither the answer, its timing nor a 429 tells it from
   * a wrong password. `hashed` when the attempt already spent a hash (the invite-only path).
   */
  private async refuseUnknown(password: string, attempt: SigninAttempt, hashed = false): Promise<never> {
    await this.throttle?.check(attempt);
    if (!hashed) {
      this.decoy ??= hashPassword('a password no account has');
      await verifyPassword(password, await this.decoy);
    }
    await this.throttle?.failed(attempt);
    throw wrongCredentials();
  }

  /**
   * Changes the caller's password (current one required) and ends every earlier identity token of the user,
   * in every workspace: the answer carries a new token for the caller's workspace, the one session that
   * goes on. Failures count toward the sign-in limits of the account and network, as a wrong sign-in does. Open reset
   * links stop working. API keys are not sessions and stay.
   */
  async changePassword(
    principal: Principal,
    current: string,
    next: string,
    network = '-',
  ): Promise<PasswordChanged> {
    if (principal.kind !== 'user' || !principal.userId || !principal.email) {
      throw forbidden(
        'Only a signed-in user can change a password; an API key has none.',
        'user_token_required',
      );
    }
    const user = await this.store.findUserByEmail(principal.email);
    if (!user || user.id !== principal.userId)
      throw unauthorized('This account no longer exists.', 'membership_revoked');
    const attempt = { email: user.email, network };
    const failures = (await this.throttle?.check(attempt)) ?? 0;
    if (!(await verifyPassword(current, user.password_hash))) {
      await this.throttle?.failed(attempt);
      throw forbidden('The current password is wrong.', 'wrong_password');
    }
    await this.throttle?.succeeded(attempt, failures);
    await this.setPassword(user.id, next);
    const subject = await this.store.tokenSubject(user.id);
    if (!subject) throw unauthorized('This account no longer exists.', 'membership_revoked');
    const { token, expiresAt } = await this.tokens.issue({ subject, workspaceId: principal.workspaceId });
    return { token, expires_at: expiresAt.toISOString(), workspace_id: principal.workspaceId };
  }

  /**
   * Sets a new password and ends every identity token of the user (a change, or a reset by link): one
   * transaction, so no token outlives the old password. Open reset links are voided.
   */
  async setPassword(userId: string, password: string): Promise<void> {
    const passwordHash = await hashPassword(password);
    await this.stores.transaction((tx) => replacePassword(this.stores, tx, userId, passwordHash));
  }

  /** A token for another workspace of the same user. */
  async switchWorkspace(
    principal: Principal,
    workspaceId: string,
  ): Promise<{ token: string; workspace_id: string; expires_at: string }> {
    if (principal.kind !== 'user' || !principal.userId) {
      throw forbidden(
        'Only a signed-in user can switch workspace; an API key belongs to one workspace.',
        'user_token_required',
      );
    }
    const membership = await this.store.membership(principal.userId, workspaceId);
    if (!membership) throw forbidden('You are not a member of that workspace.', 'not_a_member');
    const subject = await this.store.tokenSubject(principal.userId);
    if (!subject) throw unauthorized('This account no longer exists.', 'membership_revoked');
    const { token, expiresAt } = await this.tokens.issue({ subject, workspaceId });
    return { token, workspace_id: workspaceId, expires_at: expiresAt.toISOString() };
  }

  async me(principal: Principal): Promise<{
    user: { id: string; email: string } | null;
    workspace_id: string;
    role: Role;
    workspaces: WorkspaceMembershipRow[];
    app_ids?: string[];
  }> {
    if (principal.kind === 'user' && principal.userId) {
      return {
        user: { id: principal.userId, email: principal.email ?? '' },
        workspace_id: principal.workspaceId,
        role: principal.role,
        workspaces: await this.store.workspacesOf(principal.userId),
      };
    }
    // An API key belongs to its one workspace and acts with its own role there.
    const workspace = await this.stores.workspaces.find(principal.workspaceId);
    const workspaces = workspace ? [{ ...workspace, role: principal.role }] : [];
    const scope = principal.appIds ? { app_ids: [...principal.appIds] } : {};
    return { user: null, workspace_id: principal.workspaceId, role: principal.role, workspaces, ...scope };
  }

  /**
   * Resolves the caller. Membership and key state are read on every call, so a removed member, a changed
   * role or a revoked key takes effect at once (credentials.ts).
   */
  authenticate(credentials: Credentials): Promise<Principal> {
    return principalOf({ auth: this.store, apiKeys: this.apiKeys, tokens: this.tokens }, credentials);
  }

  /**
   * Ends the identity token the caller signed in with, or with `everywhere` every token of the user, in
   * every workspace: each is refused from the next request on, by every API process (the token check reads
   * Postgres). API keys are not identity tokens; they are revoked on their own.
   */
  async signout(principal: Principal, options: { everywhere?: boolean } = {}): Promise<void> {
    if (principal.kind !== 'user' || !principal.userId || !principal.token) {
      throw forbidden(
        'Only an identity token can be signed out; revoke an API key with DELETE /workspaces/{id}/api-keys/{key_id}.',
        'user_token_required',
      );
    }
    const { userId, token } = principal;
    await this.stores.transaction(async (tx) => {
      if (options.everywhere) await this.store.rotateTokenSubject(tx, userId);
      else await this.store.revokeToken(tx, token.id, token.expiresAt);
    });
  }
}

/** The one answer for a wrong password and, where no account may be made, for an unknown e-mail. */
const wrongCredentials = () => unauthorized('The e-mail or password is wrong.', 'invalid_credentials');
