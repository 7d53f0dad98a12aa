import type { Queryable } from '../platform/postgres.js';

export interface PasswordResetRow {
  id: string;
  user_id: string;
  used_at: Date | null;
  voided_at: Date | null;
  /** expires_at has passed, by the store's clock (the database's in Postgres). */
  expired: boolean;
}

export type ResetIssuer = 'email' | 'operator';

/** One-time password-reset tokens (their hashes), the one writer of password_resets. */
export interface PasswordResetsStore {
  /** A new reset token of the user; earlier open ones are voided first, so one link works at a time. */
  issue(
    tx: Queryable,
    input: { userId: string; tokenHash: string; issuedBy: ResetIssuer; ttlSeconds: number },
  ): Promise<{ expires_at: Date }>;
  /** Locks the token's row until the transaction ends, so a token is used at most once. */
  lockByHash(tx: Queryable, tokenHash: string): Promise<PasswordResetRow | undefined>;
  markUsed(tx: Queryable, id: string): Promise<void>;
  /** Voids the user's open tokens (the password changed). */
  voidOpen(tx: Queryable, userId: string): Promise<void>;
}
