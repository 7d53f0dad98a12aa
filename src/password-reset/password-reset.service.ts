import { revokeKeysOnReset } from '../api-keys/api-key-audit.js';
import type { ApiKeysStore, RevokedKey } from '../api-keys/api-keys.store.js';
import type { AuditStore } from '../audit/audit.store.js';
import type { AuthStore } from '../auth/auth.store.js';
import { hashPassword } from '../auth/passwords.js';
import { replacePassword } from '../auth/replace-password.js';
import type { EmailVerificationsStore } from '../email-verification/email-verifications.store.js';
import { AppError, gone, notFound } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import type { Mailer } from '../platform/mailer.js';
import type { Transactional } from '../platform/postgres.js';
import type { PasswordResetsStore, ResetIssuer } from './password-resets.store.js';
import type { ResetLimiter } from './reset-limiter.js';
import { resetMail } from './reset-mail.js';
import { generateResetToken, hashResetToken, resetUrl } from './reset-token.js';

export interface PasswordResetStores {
  auth: Pick<AuthStore, 'findUserByEmail' | 'userById' | 'setPassword' | 'rotateTokenSubject'>;
  passwordResets: PasswordResetsStore;
  /** A reset ends the API keys the user made, each audited in its workspace. */
  apiKeys: Pick<ApiKeysStore, 'revokeAllMadeBy'>;
  audit: Pick<AuditStore, 'append'>;
  /** A reset proves the address: the link was e-mailed to it, or the operator handed it over. */
  emailVerifications: Pick<EmailVerificationsStore, 'markVerified'>;
  transaction: Transactional;
}

/** What a reset ended besides the sessions: the API keys the user had made, in any workspace. */
export interface ResetDone {
  revoked_api_keys: RevokedKey[];
}

export interface PasswordResetOptions {
  publicUrl: string;
  ttlSeconds: number;
  /** Set when SMTP_URL is; without it links are only made by the operator's command. */
  mailer?: Mailer | undefined;
  /** Reset e-mails per address per hour; none counted without it. */
  limiter?: ResetLimiter | undefined;
  log: Logger;
}

/**
 * A new link voids the open ones older than this, never a fresher one: anyone may ask for a link to any
 * address, and a stranger's request must not void the link its owner was sent moments ago. Every link goes
 * to the owner's inbox, so the ones kept are the owner's too; at most PASSWORD_RESETS_PER_HOUR per network.
 */
export const FRESH_LINK_SECONDS = 600;

export interface IssuedReset {
  url: string;
  expires_at: string;
}

/**
 * Resetting a forgotten password: a one-time link, e-mailed to the account's address when a mail server
 * is configured (POST /auth/password-reset), or printed for the operator (`npm run admin -- reset-password`)
 * on a server without one. Following it sets a new password and ends every credential made before it:
 * every session and every API key the user made, in every workspace. A reset is how an account is taken
 * back, from someone who signed up first with the owner's address or stole the password, so nothing that
 * person made may outlive it.
 */
export class PasswordResetService {
  constructor(
    private readonly stores: PasswordResetStores,
    private readonly options: PasswordResetOptions,
  ) {}

  /**
   * Asks for a reset link by e-mail. The answer is the same whether or not an account has the address (and
   * whether the hour's allowance is used up), so it tells nobody which e-mails have accounts; the mail is
   * sent after the answer, so its timing tells nothing either.
   */
  async request(rawEmail: string, network = '-'): Promise<void> {
    const { mailer, limiter, log } = this.options;
    if (!mailer) {
      throw new AppError(
        403,
        'password_reset_unavailable',
        'This server sends no e-mail (no SMTP_URL), so it cannot send a reset link. Ask its operator to ' +
          'run `npm run admin -- reset-password <email>`.',
      );
    }
    const email = rawEmail.trim().toLowerCase();
    if (limiter && !(await limiter.allow(email, network))) return;
    const user = await this.stores.auth.findUserByEmail(email);
    if (!user) return;
    const issued = await this.issueFor(user.id, 'email');
    void mailer
      .send(resetMail({ to: user.email, url: issued.url, expiresAt: new Date(issued.expires_at) }))
      .catch((err: unknown) => log.warn({ err }, 'password-reset e-mail not sent'));
  }

  /** A link for the operator to hand over (the admin command); 404 when no account has the e-mail. */
  async issueForOperator(rawEmail: string): Promise<IssuedReset & { email: string }> {
    const email = rawEmail.trim().toLowerCase();
    const user = await this.stores.auth.findUserByEmail(email);
    if (!user) throw notFound(`An account with the e-mail ${email}`, 'account_not_found');
    return { email: user.email, ...(await this.issueFor(user.id, 'operator')) };
  }

  /** Sets a password directly (the admin command with --password-stdin), ending every credential too. */
  async setForOperator(rawEmail: string, password: string): Promise<ResetDone & { email: string }> {
    const email = rawEmail.trim().toLowerCase();
    const user = await this.stores.auth.findUserByEmail(email);
    if (!user) throw notFound(`An account with the e-mail ${email}`, 'account_not_found');
    const hash = await hashPassword(password);
    const revoked = await this.stores.transaction(async (tx) => {
      await replacePassword(this.stores, tx, user.id, hash);
      await this.stores.emailVerifications.markVerified(tx, user.id);
      return revokeKeysOnReset(this.stores, tx, user);
    });
    return { email: user.email, revoked_api_keys: revoked };
  }

  /**
   * Uses a reset token: the new password is set, every identity token and API key of the user ends, in one
   * transaction with the token marked used. Unknown token 404; used, replaced or expired 410.
   */
  async confirm(token: string, password: string): Promise<ResetDone> {
    const hash = await hashPassword(password);
    return this.stores.transaction(async (tx) => {
      const reset = await this.stores.passwordResets.lockByHash(tx, hashResetToken(token));
      if (!reset) throw notFound('Reset link', 'reset_not_found');
      if (reset.used_at) throw gone('This reset link was already used; ask for a new one.', 'reset_used');
      if (reset.voided_at)
        throw gone('A newer reset link or a password change replaced this one.', 'reset_replaced');
      if (reset.expired) throw gone('This reset link has expired; ask for a new one.', 'reset_expired');
      await this.stores.passwordResets.markUsed(tx, reset.id);
      await replacePassword(this.stores, tx, reset.user_id, hash);
      await this.stores.emailVerifications.markVerified(tx, reset.user_id);
      const user = await this.stores.auth.userById(reset.user_id);
      const revoked = user ? await revokeKeysOnReset(this.stores, tx, user) : [];
      return { revoked_api_keys: revoked };
    });
  }

  private async issueFor(userId: string, issuedBy: ResetIssuer): Promise<IssuedReset> {
    const { token, hash } = generateResetToken();
    const { expires_at } = await this.stores.transaction((tx) =>
      this.stores.passwordResets.issue(tx, {
        userId,
        tokenHash: hash,
        issuedBy,
        ttlSeconds: this.options.ttlSeconds,
        keepFreshSeconds: FRESH_LINK_SECONDS,
      }),
    );
    return { url: resetUrl(this.options.publicUrl, token), expires_at: expires_at.toISOString() };
  }
}
