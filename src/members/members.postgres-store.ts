import type { Role } from '../access/principal.js';
import type { Queryable } from '../platform/postgres.js';
import type { MemberRow, MembersStore } from './members.store.js';

const COLUMNS = `id, email, role, CASE WHEN user_id IS NULL THEN 'invited' ELSE 'active' END AS status, created_at,
  user_id`;

export class PostgresMembersStore implements MembersStore {
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

  /**
   * The user's membership, share-locked until the transaction ends: a removal or role change of it waits
   * (and one under way is waited for), so what is decided on it still holds at commit.
   */
  async lockMembership(
    tx: Queryable,
    workspaceId: string,
    userId: string,
  ): Promise<{ id: string; role: Role } | undefined> {
    const { rows } = await tx.query<{ id: string; role: Role }>(
      'SELECT id, role FROM members WHERE workspace_id = $1 AND user_id = $2 FOR SHARE',
      [workspaceId, userId],
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

  /** A new invited member: no user until the invitee accepts its invitation. */
  async insert(tx: Queryable, workspaceId: string, email: string, role: Role): Promise<MemberRow> {
    const { rows } = await tx.query<MemberRow>(
      `INSERT INTO members (workspace_id, email, role) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
      [workspaceId, email, role],
    );
    return rows[0]!;
  }

  async insertOwner(tx: Queryable, workspaceId: string, email: string, userId: string): Promise<MemberRow> {
    const { rows } = await tx.query<MemberRow>(
      `INSERT INTO members (workspace_id, email, user_id, role) VALUES ($1, $2, $3, 'owner') RETURNING ${COLUMNS}`,
      [workspaceId, email, userId],
    );
    return rows[0]!;
  }

  /** Binds an invited member to the user who accepted; undefined when it is not (or no longer) invited. */
  async activate(
    tx: Queryable,
    workspaceId: string,
    memberId: string,
    userId: string,
  ): Promise<MemberRow | undefined> {
    const { rows } = await tx.query<MemberRow>(
      `UPDATE members SET user_id = $3, updated_at = now()
        WHERE workspace_id = $1 AND id = $2 AND user_id IS NULL
       RETURNING ${COLUMNS}`,
      [workspaceId, memberId, userId],
    );
    return rows[0];
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
