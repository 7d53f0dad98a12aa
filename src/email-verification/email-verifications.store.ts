import type { Queryable } from '../platform/postgres.js';

/** What a verification token names: its user, and whether it can still be used. */
export interface VerificationRow {
  user_id: string;
  email: string;
  used: boolean;
  /** expires_at has passed, by the store's clock. */
  expired: boolean;
}

/** Whether accounts have proven their address, and the one-time links that prove it. */
export interface EmailVerificationsStore {
  /** The account must prove its address before it may make keys, invite or push. */
  markUnverified(tx: Queryable, userId: string): Promise<void>;
  /** The address is proven (a verification link, or a reset link e-mailed to it). */
  markVerified(tx: Queryable, userId: string): Promise<void>;
  isUnverified(userId: string): Promise<boolean>;
  issue(tx: Queryable, input: { userId: string; tokenHash: string; ttlSeconds: number }): Promise<void>;
  /** Locks the token's row until the transaction ends, so a token is used at most once. */
  lockByHash(tx: Queryable, tokenHash: string): Promise<VerificationRow | undefined>;
  markUsed(tx: Queryable, tokenHash: string): Promise<void>;
}
