import type { Queryable } from '../platform/postgres.js';

export interface InvitationRow {
  id: string;
  workspace_id: string;
  member_id: string | null;
  email: string;
  expires_at: Date;
  accepted_at: Date | null;
  voided_at: Date | null;
  /** expires_at has passed, by the store's clock (the database's in Postgres). */
  expired: boolean;
}

export interface InvitationInput {
  workspaceId: string;
  memberId: string;
  email: string;
  tokenHash: string;
  createdBy: string | null;
  ttlSeconds: number;
}

/** Invitation tokens (their hashes) and what became of them; always inside the caller's transaction. */
export interface InvitationsStore {
  /** A new open invitation of the member; any earlier open one of the same member is voided first. */
  issue(tx: Queryable, input: InvitationInput): Promise<{ expires_at: Date }>;
  /** Locks the invitation until the transaction ends, so a token is accepted at most once. */
  lockByHash(tx: Queryable, tokenHash: string): Promise<InvitationRow | undefined>;
  markAccepted(tx: Queryable, id: string): Promise<void>;
  /** Whether the e-mail has an invitation still to accept (SIGNUP=invite-only lets it make an account). */
  hasOpen(q: Queryable, email: string): Promise<boolean>;
}
