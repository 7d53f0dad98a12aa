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

export interface IssueInput {
  userId: string;
  tokenHash: string;
  issuedBy: ResetIssuer;
  ttlSeconds: number;
  keepFreshSeconds: number;
}

/** One-time password-reset tokens (their hashes), the one writer of password_resets. */
export interface PasswordResetsStore {
  /**
   * A new reset token of the user; open ones issued more than `keepFreshSeconds` ago are voided first, so
   * an old link stops working but one sent moments ago does not.
   */
  issue(tx: Queryable, input: IssueInput): Promise<{ expires_at: Date }>;
  /** Locks the token's row until the transaction ends, so a token is used at most once. */
  lockByHash(tx: Queryable, tokenHash: string): Promise<PasswordResetRow | undefined>;
  markUsed(tx: Queryable, id: string): Promise<void>;
  /** Voids the user's open tokens (the password changed). */
  voidOpen(tx: Queryable, userId: string): Promise<void>;
}
