import type { Queryable } from '../platform/postgres.js';

export interface InvitationRow {
  id: string;
  workspace_id: string;
  member_id: string | null;
  email: string;
  expires_at: Date;
  accepted_at: Date | null;
  voided_at: Date | null;
  /** expires_at has passed, by the database's clock. */
  expired: boolean;
}

const COLUMNS =
  'id, workspace_id, member_id, email, expires_at, accepted_at, voided_at, expires_at <= now() AS expired';

/** Invitation tokens (their hashes) and what became of them; always inside the caller's transaction. */
export class InvitationsStore {
  /** A new open invitation of the member; any earlier open one of the same member is voided first. */
  async issue(
    tx: Queryable,
    input: {
      workspaceId: string;
      memberId: string;
      email: string;
      tokenHash: string;
      createdBy: string | null;
      ttlSeconds: number;
    },
  ): Promise<{ expires_at: Date }> {
    await tx.query(
      `UPDATE invitations SET voided_at = now()
        WHERE member_id = $1 AND accepted_at IS NULL AND voided_at IS NULL`,
      [input.memberId],
    );
    const { rows } = await tx.query<{ expires_at: Date }>(
      `INSERT INTO invitations (workspace_id, member_id, email, token_hash, created_by, expires_at)
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))
       RETURNING expires_at`,
      [input.workspaceId, input.memberId, input.email, input.tokenHash, input.createdBy, input.ttlSeconds],
    );
    return rows[0]!;
  }

  /** Locks the invitation until the transaction ends, so a token is accepted at most once. */
  async lockByHash(tx: Queryable, tokenHash: string): Promise<InvitationRow | undefined> {
    const { rows } = await tx.query<InvitationRow>(
      `SELECT ${COLUMNS} FROM invitations WHERE token_hash = $1 FOR UPDATE`,
      [tokenHash],
    );
    return rows[0];
  }

  async markAccepted(tx: Queryable, id: string): Promise<void> {
    await tx.query('UPDATE invitations SET accepted_at = now() WHERE id = $1', [id]);
  }
}
