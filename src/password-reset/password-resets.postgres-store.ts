import type { Queryable } from '../platform/postgres.js';
import type { IssueInput, PasswordResetRow, PasswordResetsStore } from './password-resets.store.js';

export class PostgresPasswordResetsStore implements PasswordResetsStore {
  async issue(tx: Queryable, input: IssueInput): Promise<{ expires_at: Date }> {
    await tx.query(
      `UPDATE password_resets SET voided_at = now()
        WHERE user_id = $1 AND used_at IS NULL AND voided_at IS NULL
          AND created_at < now() - make_interval(secs => $2)`,
      [input.userId, input.keepFreshSeconds],
    );
    const { rows } = await tx.query<{ expires_at: Date }>(
      `INSERT INTO password_resets (user_id, token_hash, issued_by, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4))
       RETURNING expires_at`,
      [input.userId, input.tokenHash, input.issuedBy, input.ttlSeconds],
    );
    return rows[0]!;
  }

  async lockByHash(tx: Queryable, tokenHash: string): Promise<PasswordResetRow | undefined> {
    const { rows } = await tx.query<PasswordResetRow>(
      `SELECT id, user_id, used_at, voided_at, expires_at <= now() AS expired
         FROM password_resets WHERE token_hash = $1 FOR UPDATE`,
      [tokenHash],
    );
    return rows[0];
  }

  async markUsed(tx: Queryable, id: string): Promise<void> {
    await tx.query('UPDATE password_resets SET used_at = now() WHERE id = $1', [id]);
  }

  async voidOpen(tx: Queryable, userId: string): Promise<void> {
    await tx.query(
      `UPDATE password_resets SET voided_at = now()
        WHERE user_id = $1 AND used_at IS NULL AND voided_at IS NULL`,
      [userId],
    );
  }
}
