import { Type } from '@sinclair/typebox';
import { atLeast, Count, type EnvOf, int, listOf } from './env.js';

/**
 * Who may make an account by signing in (SIGNUP): anyone (`open`, the specification's default), only an
 * e-mail with a pending invitation (`invite-only`), or nobody new (`closed`).
 */
export const SIGNUP_MODES = ['open', 'invite-only', 'closed'] as const;
export type SignupMode = (typeof SIGNUP_MODES)[number];

/** Accounts' variables: identity tokens, invitations, sign-up, password resets and the mail they send. */
export const ACCOUNT_ENV = {
  // At least 32 bytes (secrets.ts checks it, in bytes rather than characters).
  AUTH_TOKEN_SECRET: Type.String({ minLength: 1 }),
  AUTH_TOKEN_PREVIOUS_SECRETS: Type.Optional(Type.String()),
  AUTH_TOKEN_TTL_SECONDS: Count('43200'),
  INVITATION_TTL_SECONDS: Count('604800'),
  SIGNUP: Type.Union(
    SIGNUP_MODES.map((m) => Type.Literal(m)),
    { default: 'open' },
  ),
  PASSWORD_RESET_TTL_SECONDS: Count('3600'),
  PASSWORD_RESETS_PER_HOUR: Count('3'),
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  SMTP_FROM: Type.Optional(Type.String({ minLength: 3, maxLength: 254 })),
  SMTP_TIMEOUT_MS: Count('10000'),
};

export interface AccountSettings {
  /**
   * Identity tokens: signed with tokenSecret; previousSecrets (a rotation in progress) still verify the
   * tokens they signed.
   */
  auth: { tokenSecret: string; previousSecrets: string[]; tokenTtlSeconds: number };
  /** How long an invitation token can be accepted. */
  invitations: { ttlSeconds: number };
  /** Who may make an account by signing in (SIGNUP). */
  signup: SignupMode;
  /** Password-reset links: how long one works, and how many one e-mail may ask for per hour. */
  passwordResets: { ttlSeconds: number; perHour: number };
  /** Outgoing mail (invitations); none without SMTP_URL. */
  smtp: { url: string; from: string; timeoutMs: number } | null;
}

/** The account settings; mail is sent from no-reply at the public URL's host unless SMTP_FROM says. */
export function accountSettings(e: EnvOf<typeof ACCOUNT_ENV>, publicUrl: string): AccountSettings {
  return {
    auth: {
      tokenSecret: e.AUTH_TOKEN_SECRET,
      previousSecrets: listOf(e.AUTH_TOKEN_PREVIOUS_SECRETS),
      tokenTtlSeconds: int(e.AUTH_TOKEN_TTL_SECONDS),
    },
    invitations: { ttlSeconds: atLeast(60, e.INVITATION_TTL_SECONDS) },
    signup: e.SIGNUP,
    passwordResets: {
      ttlSeconds: atLeast(60, e.PASSWORD_RESET_TTL_SECONDS),
      perHour: atLeast(1, e.PASSWORD_RESETS_PER_HOUR),
    },
    smtp: e.SMTP_URL
      ? {
          url: e.SMTP_URL,
          from: e.SMTP_FROM ?? `OTA <no-reply@${new URL(publicUrl).hostname}>`,
          timeoutMs: atLeast(100, e.SMTP_TIMEOUT_MS),
        }
      : null,
  };
}
