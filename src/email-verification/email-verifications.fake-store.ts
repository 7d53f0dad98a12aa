import { onRollback } from '../platform/fake-transaction.js';
import type { Queryable } from '../platform/postgres.js';
import type { EmailVerificationsStore, VerificationRow } from './email-verifications.store.js';

interface Stored {
  user_id: string;
  token_hash: string;
  expires_at: Date;
  used: boolean;
}

/** Verification state and links in memory; e-mails come from the users fake, expiry from the fakes' clock. */
export class FakeEmailVerificationsStore implements EmailVerificationsStore {
  readonly unverified = new Set<string>();
  readonly rows: Stored[] = [];

  constructor(
    /** The users' e-mails: the auth store's fake. */
    private readonly users: { userById(userId: string): Promise<{ email: string } | undefined> },
    private readonly now: () => number = Date.now,
  ) {}

  async markUnverified(tx: Queryable, userId: string): Promise<void> {
    if (this.unverified.has(userId)) return;
    this.unverified.add(userId);
    onRollback(tx, () => this.unverified.delete(userId));
  }

  async markVerified(tx: Queryable, userId: string): Promise<void> {
    if (!this.unverified.delete(userId)) return;
    onRollback(tx, () => this.unverified.add(userId));
  }

  async isUnverified(userId: string): Promise<boolean> {
    return this.unverified.has(userId);
  }

  async issue(
    tx: Queryable,
    input: { userId: string; tokenHash: string; ttlSeconds: number },
  ): Promise<void> {
    const row = {
      user_id: input.userId,
      token_hash: input.tokenHash,
      expires_at: new Date(this.now() + input.ttlSeconds * 1000),
      used: false,
    };
    this.rows.push(row);
    onRollback(tx, () => this.rows.splice(this.rows.indexOf(row), 1));
  }

  async lockByHash(_tx: Queryable, tokenHash: string): Promise<VerificationRow | undefined> {
    const row = this.rows.find((r) => r.token_hash === tokenHash);
    const user = row && (await this.users.userById(row.user_id));
    if (!row || !user) return undefined;
    return {
      user_id: row.user_id,
      email: user.email,
      used: row.used,
      expired: row.expires_at.getTime() <= this.now(),
    };
  }

  async markUsed(tx: Queryable, tokenHash: string): Promise<void> {
    const row = this.rows.find((r) => r.token_hash === tokenHash);
    if (!row || row.used) return;
    row.used = true;
    onRollback(tx, () => {
      row.used = false;
    });
  }
}
