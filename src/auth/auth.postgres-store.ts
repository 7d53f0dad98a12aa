import type { Queryable } from '../platform/postgres.js';
import type {
  AuthStore,
  MembershipRow,
  TokenMembershipRow,
  UserRow,
  WorkspaceMembershipRow,
} from './auth.store.js';

const USER_COLUMNS = 'id, email, password_hash, token_subject';

export class PostgresAuthStore implements AuthStore {
  constructor(private readonly db: Queryable) {}

  async findUserByEmail(email: string, q: Queryable = this.db): Promise<UserRow | undefined> {
    const { rows } = await q.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE email = $1`, [email]);
    return rows[0];
  }

  /** Inserts the user unless the e-mail exists (a concurrent first sign-in); undefined in that case. */
  async insertUser(q: Queryable, email: string, passwordHash: string): Promise<UserRow | undefined> {
    const { rows } = await q.query<UserRow>(
      `INSERT INTO users (email, password_hash) VALUES ($1, $2)
       ON CONFLICT (email) DO NOTHING RETURNING ${USER_COLUMNS}`,
      [email, passwordHash],
    );
    return rows[0];
  }

  /** The workspace a sign-in lands in: the user's own (oldest owned), else the oldest membership. */
  async defaultWorkspace(userId: string): Promise<string | undefined> {
    const { rows } = await this.db.query<{ workspace_id: string }>(
      `SELECT m.workspace_id FROM members m JOIN workspaces w ON w.id = m.workspace_id
        WHERE m.user_id = $1 ORDER BY (m.role = 'owner') DESC, w.created_at, w.id LIMIT 1`,
      [userId],
    );
    return rows[0]?.workspace_id;
  }

  async membership(userId: string, workspaceId: string): Promise<MembershipRow | undefined> {
    const { rows } = await this.db.query<MembershipRow>(
      `SELECT m.workspace_id, m.role, u.email FROM members m JOIN users u ON u.id = m.user_id
        WHERE m.user_id = $1 AND m.workspace_id = $2`,
      [userId, workspaceId],
    );
    return rows[0];
  }

  /** The user an identity token's subject names, its role there, and whether the token was signed out. */
  async membershipByTokenSubject(
    subject: string,
    workspaceId: string,
    tokenId: string,
  ): Promise<TokenMembershipRow | undefined> {
    const { rows } = await this.db.query<TokenMembershipRow>(
      `SELECT u.id AS user_id, u.email, m.role,
              EXISTS (SELECT 1 FROM revoked_tokens r WHERE r.token_id = $3) AS revoked
         FROM users u
         LEFT JOIN members m ON m.user_id = u.id AND m.workspace_id = $2
        WHERE u.token_subject = $1`,
      [subject, workspaceId, tokenId],
    );
    return rows[0];
  }

  async revokeToken(q: Queryable, tokenId: string, expiresAt: Date): Promise<void> {
    // Revocations of tokens that have expired anyway are cleared in passing: there are few, and only
    // sign-outs write them.
    await q.query('DELETE FROM revoked_tokens WHERE expires_at < now()');
    await q.query(
      'INSERT INTO revoked_tokens (token_id, expires_at) VALUES ($1, $2) ON CONFLICT (token_id) DO NOTHING',
      [tokenId, expiresAt],
    );
  }

  async rotateTokenSubject(q: Queryable, userId: string): Promise<void> {
    await q.query('UPDATE users SET token_subject = gen_random_uuid() WHERE id = $1', [userId]);
  }

  async setPassword(q: Queryable, userId: string, passwordHash: string): Promise<void> {
    await q.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
  }

  async tokenSubject(userId: string): Promise<string | undefined> {
    const { rows } = await this.db.query<{ token_subject: string }>(
      'SELECT token_subject FROM users WHERE id = $1',
      [userId],
    );
    return rows[0]?.token_subject;
  }

  async workspacesOf(userId: string): Promise<WorkspaceMembershipRow[]> {
    const { rows } = await this.db.query<WorkspaceMembershipRow>(
      `SELECT w.id, w.name, w.plan, m.role FROM members m JOIN workspaces w ON w.id = m.workspace_id
        WHERE m.user_id = $1 ORDER BY w.created_at, w.id`,
      [userId],
    );
    return rows;
  }

  async userById(userId: string): Promise<{ id: string; email: string } | undefined> {
    const { rows } = await this.db.query<{ id: string; email: string }>(
      'SELECT id, email FROM users WHERE id = $1',
      [userId],
    );
    return rows[0];
  }
}
