import type { Queryable } from '../platform/postgres.js';
import type { InvitationInput, InvitationRow, InvitationsStore } from './invitations.store.js';

const COLUMNS =
  'id, workspace_id, member_id, email, expires_at, accepted_at, voided_at, expires_at <= now() AS expired';

export class PostgresInvitationsStore implements InvitationsStore {
  /** A new open invitation of the member; any earlier open one of the same member is voided first. */
  async issue(tx: Queryable, input: InvitationInput): Promise<{ expires_at: Date }> {
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

  async hasOpen(q: Queryable, email: string): Promise<boolean> {
    const { rows } = await q.query<{ open: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM invitations
                       WHERE email = $1 AND member_id IS NOT NULL AND accepted_at IS NULL
                         AND voided_at IS NULL AND expires_at > now()) AS open`,
      [email],
    );
    return rows[0]!.open;
  }
}
