import type { Principal } from '../access/principal.js';
import { forbidden, gone, notFound } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import type { Mailer, MailMessage } from '../platform/mailer.js';
import type { Queryable, Transactional } from '../platform/postgres.js';
import { newSecretToken, sha256Hex } from '../platform/secret-tokens.js';
import type { EmailVerificationsStore } from './email-verifications.store.js';

/** A verification link works a day: long enough to reach a slow inbox, short enough not to linger. */
const TTL_SECONDS = 86_400;

export interface EmailVerificationOptions {
  publicUrl: string;
  /** Set when SMTP_URL is: only then are new accounts asked to prove their address. */
  mailer?: Mailer | undefined;
  log: Logger;
}

/**
 * Proof of an account's e-mail address. On an open server anyone may sign up first with someone else's
 * address; with a mail server (SMTP_URL) a new account is therefore e-mailed a one-time link and may not
 * make API keys, invite or push until it is opened (routes named in proven-email.ts answer 403
 * `email_unverified`). It may sign in, read, make apps and change its password meanwhile. Without a mail
 * server nothing can be proven and nothing is asked; the operator's password reset recovers an account
 * (docs/operations/security.md).
 */
export class EmailVerificationService {
  constructor(
    private readonly stores: { emailVerifications: EmailVerificationsStore; transaction: Transactional },
    private readonly options: EmailVerificationOptions,
  ) {}

  /** Whether new accounts must prove their address (a mail server is configured). */
  get required(): boolean {
    return this.options.mailer !== undefined;
  }

  /** Inside the transaction that makes the account: it starts unverified when proof is asked. */
  async accountMade(tx: Queryable, userId: string): Promise<void> {
    if (this.required) await this.stores.emailVerifications.markUnverified(tx, userId);
  }

  /** After the account is made: the link is e-mailed (in the background; the sign-in does not wait). */
  async sendLink(user: { id: string; email: string }): Promise<void> {
    const { mailer, log } = this.options;
    if (!mailer) return;
    const { token, hash } = newSecretToken('ota_vfy_');
    await this.stores.transaction((tx) =>
      this.stores.emailVerifications.issue(tx, { userId: user.id, tokenHash: hash, ttlSeconds: TTL_SECONDS }),
    );
    void mailer
      .send(verificationMail(user.email, `${this.options.publicUrl}/verify-email#token=${token}`))
      .catch((err: unknown) => log.warn({ err }, 'verification e-mail not sent'));
  }

  /** Another link for the signed-in, still unverified, user (POST /auth/verify-email). */
  async resend(principal: Principal): Promise<void> {
    if (principal.kind !== 'user' || !principal.userId || !principal.email) {
      throw forbidden('Only a signed-in user has an address to verify.', 'user_token_required');
    }
    // Without a mail server no account is asked for proof, so there is nothing to send.
    if (!(await this.stores.emailVerifications.isUnverified(principal.userId))) return;
    await this.sendLink({ id: principal.userId, email: principal.email });
  }

  /** Opens a link: the address is proven. Unknown token 404; used or expired 410. */
  async confirm(token: string): Promise<{ email: string }> {
    const hash = sha256Hex(token);
    return this.stores.transaction(async (tx) => {
      const row = await this.stores.emailVerifications.lockByHash(tx, hash);
      if (!row) throw notFound('Verification link', 'verification_not_found');
      if (row.used) throw gone('This verification link was already used.', 'verification_used');
      if (row.expired) {
        throw gone(
          'This verification link has expired; sign in and ask for a new one.',
          'verification_expired',
        );
      }
      await this.stores.emailVerifications.markUsed(tx, hash);
      await this.stores.emailVerifications.markVerified(tx, row.user_id);
      return { email: row.email };
    });
  }

  /** Refuses an unverified user (a 403 that says what to do); API keys and verified users pass. */
  async requireProven(principal: Principal, what: string): Promise<void> {
    // Without a mail server nothing can be proven, so nothing is asked (and no query is spent).
    if (!this.required || principal.kind !== 'user' || !principal.userId) return;
    if (!(await this.stores.emailVerifications.isUnverified(principal.userId))) return;
    throw forbidden(
      `${what} needs a verified e-mail address. Open the link e-mailed to ${principal.email ?? 'you'} when ` +
        'the account was made (POST /auth/verify-email sends a new one).',
      'email_unverified',
    );
  }
}

function verificationMail(to: string, url: string): MailMessage {
  return {
    to,
    subject: 'Confirm your e-mail address',
    text: [
      'An account was made with this e-mail address. To confirm the address is yours, open this link:',
      '',
      url,
      '',
      'The link works once, for a day. Until then the account cannot create API keys, invite people or push',
      'releases. If you did not make this account, someone else used your address: ask for a password',
      'reset at the sign-in page, which gives the account to you and ends everything they made.',
      '',
    ].join('\n'),
  };
}
