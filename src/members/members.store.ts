import type { Role } from '../auth/principal.js';
import type { Queryable } from '../platform/postgres.js';

export type MemberStatus = 'active' | 'invited';

export interface MemberRow {
  id: string;
  email: string;
  role: Role;
  status: MemberStatus;
  created_at: Date;
}

const COLUMNS = `id, email, role, CASE WHEN user_id IS NULL THEN 'invited' ELSE 'active' END AS status, created_at`;

/** Member rows: one per invitation, bound to a user once the invitee has an account. */
export class MembersStore {
  constructor(private readonly db: Queryable) {}

  /** Owner first, then in the order they were invited. */
  async list(workspaceId: string): Promise<MemberRow[]> {
    const { rows } = await this.db.query<MemberRow>(
      `SELECT ${COLUMNS} FROM members WHERE workspace_id = $1 ORDER BY (role = 'owner') DESC, created_at, id`,
      [workspaceId],
    );
    return rows;
  }

  async find(workspaceId: string, memberId: string, q: Queryable = this.db): Promise<MemberRow | undefined> {
    const { rows } = await q.query<MemberRow>(
      `SELECT ${COLUMNS} FROM members WHERE workspace_id = $1 AND id = $2`,
      [workspaceId, memberId],
    );
    return rows[0];
  }

  /** Locks the row until the transaction ends, so two changes to one member apply one after the other. */
  async lock(tx: Queryable, workspaceId: string, memberId: string): Promise<MemberRow | undefined> {
    const { rows } = await tx.query<MemberRow>(
      `SELECT ${COLUMNS} FROM members WHERE workspace_id = $1 AND id = $2 FOR UPDATE`,
      [workspaceId, memberId],
    );
    return rows[0];
  }

  async findByEmail(tx: Queryable, workspaceId: string, email: string): Promise<MemberRow | undefined> {
    const { rows } = await tx.query<MemberRow>(
      `SELECT ${COLUMNS} FROM members WHERE workspace_id = $1 AND email = $2`,
      [workspaceId, email],
    );
    return rows[0];
  }

  /**
   * Serialises against a first sign-in with the same e-mail (the users_lock_email trigger takes the same
   * lock), so the user lookup that follows cannot miss an account being created at this moment.
   */
  async lockEmail(tx: Queryable, email: string): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('member-email:' || $1, 7310))`, [email]);
  }

  /** The invitation; bound to the user at once when the e-mail already has an account. */
  async insert(tx: Queryable, workspaceId: string, email: string, role: Role): Promise<MemberRow> {
    const { rows } = await tx.query<MemberRow>(
      `INSERT INTO members (workspace_id, email, role, user_id)
       VALUES ($1, $2, $3, (SELECT id FROM users WHERE email = $2))
       RETURNING ${COLUMNS}`,
      [workspaceId, email, role],
    );
    return rows[0]!;
  }

  async setRole(tx: Queryable, workspaceId: string, memberId: string, role: Role): Promise<MemberRow> {
    const { rows } = await tx.query<MemberRow>(
      `UPDATE members SET role = $3, updated_at = now() WHERE workspace_id = $1 AND id = $2
       RETURNING ${COLUMNS}`,
      [workspaceId, memberId, role],
    );
    return rows[0]!;
  }

  async remove(tx: Queryable, workspaceId: string, memberId: string): Promise<void> {
    await tx.query('DELETE FROM members WHERE workspace_id = $1 AND id = $2', [workspaceId, memberId]);
  }
}
