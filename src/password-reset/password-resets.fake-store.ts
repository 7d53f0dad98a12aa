import { randomUUID } from 'node:crypto';
import { onRollback } from '../platform/fake-transaction.js';
import type { Queryable } from '../platform/postgres.js';
import type { IssueInput, PasswordResetRow, PasswordResetsStore } from './password-resets.store.js';

interface Stored extends Omit<PasswordResetRow, 'expired'> {
  token_hash: string;
  created_at: Date;
  expires_at: Date;
}

/** Reset tokens in memory; expiry is judged by the fakes' clock. */
export class FakePasswordResetsStore implements PasswordResetsStore {
  readonly rows: Stored[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  async issue(tx: Queryable, input: IssueInput): Promise<{ expires_at: Date }> {
    const before = this.now() - input.keepFreshSeconds * 1000;
    this.voidRows(
      tx,
      this.open(input.userId).filter((r) => r.created_at.getTime() < before),
    );
    const row: Stored = {
      id: randomUUID(),
      created_at: new Date(this.now()),
      user_id: input.userId,
      token_hash: input.tokenHash,
      expires_at: new Date(this.now() + input.ttlSeconds * 1000),
      used_at: null,
      voided_at: null,
    };
    this.rows.push(row);
    onRollback(tx, () => this.rows.splice(this.rows.indexOf(row), 1));
    return { expires_at: row.expires_at };
  }

  async lockByHash(_tx: Queryable, tokenHash: string): Promise<PasswordResetRow | undefined> {
    const row = this.rows.find((r) => r.token_hash === tokenHash);
    if (!row) return undefined;
    const { token_hash: _hash, created_at: _at, expires_at, ...rest } = row;
    return { ...rest, expired: expires_at.getTime() <= this.now() };
  }

  async markUsed(tx: Queryable, id: string): Promise<void> {
    const row = this.rows.find((r) => r.id === id);
    if (!row) return;
    row.used_at = new Date(this.now());
    onRollback(tx, () => {
      row.used_at = null;
    });
  }

  async voidOpen(tx: Queryable, userId: string): Promise<void> {
    this.voidRows(tx, this.open(userId));
  }

  private open(userId: string): Stored[] {
    return this.rows.filter((r) => r.user_id === userId && !r.used_at && !r.voided_at);
  }

  private voidRows(tx: Queryable, rows: Stored[]): void {
    for (const open of rows) {
      open.voided_at = new Date(this.now());
      onRollback(tx, () => {
        open.voided_at = null;
      });
    }
  }
}
