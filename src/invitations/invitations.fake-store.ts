import { randomUUID } from 'node:crypto';
import { onRollback } from '../platform/fake-transaction.js';
import type { Queryable } from '../platform/postgres.js';
import type { InvitationInput, InvitationRow, InvitationsStore } from './invitations.store.js';

interface Stored extends Omit<InvitationRow, 'expired'> {
  token_hash: string;
}

/** Invitations in memory; expiry is judged by the fakes' clock. */
export class FakeInvitationsStore implements InvitationsStore {
  readonly rows: Stored[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  async issue(tx: Queryable, input: InvitationInput): Promise<{ expires_at: Date }> {
    for (const open of this.rows.filter(
      (r) => r.member_id === input.memberId && !r.accepted_at && !r.voided_at,
    )) {
      open.voided_at = new Date(this.now());
      onRollback(tx, () => {
        open.voided_at = null;
      });
    }
    const row: Stored = {
      id: randomUUID(),
      workspace_id: input.workspaceId,
      member_id: input.memberId,
      email: input.email,
      token_hash: input.tokenHash,
      expires_at: new Date(this.now() + input.ttlSeconds * 1000),
      accepted_at: null,
      voided_at: null,
    };
    this.rows.push(row);
    onRollback(tx, () => this.rows.splice(this.rows.indexOf(row), 1));
    return { expires_at: row.expires_at };
  }

  async lockByHash(_tx: Queryable, tokenHash: string): Promise<InvitationRow | undefined> {
    const row = this.rows.find((r) => r.token_hash === tokenHash);
    if (!row) return undefined;
    const { token_hash: _hash, ...invitation } = row;
    return { ...invitation, expired: row.expires_at.getTime() <= this.now() };
  }

  async markAccepted(tx: Queryable, id: string): Promise<void> {
    const row = this.rows.find((r) => r.id === id);
    if (!row) return;
    row.accepted_at = new Date(this.now());
    onRollback(tx, () => {
      row.accepted_at = null;
    });
  }

  async hasOpen(_q: Queryable, email: string): Promise<boolean> {
    return this.rows.some(
      (r) =>
        r.email === email &&
        r.member_id !== null &&
        !r.accepted_at &&
        !r.voided_at &&
        r.expires_at.getTime() > this.now(),
    );
  }
}
