import type { Queryable } from '../platform/postgres.js';
import type { EmailVerificationsStore, VerificationRow } from './email-verifications.store.js';

export class PostgresEmailVerificationsStore implements EmailVerificationsStore {
  constructor(private readonly db: Queryable) {}

  async markUnverified(tx: Queryable, userId: string): Promise<void> {
    await tx.query('UPDATE users SET email_unverified = true WHERE id = $1', [userId]);
  }

  async markVerified(tx: Queryable, userId: string): Promise<void> {
    await tx.query('UPDATE users SET email_unverified = false WHERE id = $1 AND email_unverified', [userId]);
  }

  async isUnverified(userId: string): Promise<boolean> {
    const { rows } = await this.db.query<{ email_unverified: boolean }>(
      'SELECT email_unverified FROM users WHERE id = $1',
      [userId],
    );
    return rows[0]?.email_unverified === true;
  }

  async issue(
    tx: Queryable,
    input: { userId: string; tokenHash: string; ttlSeconds: number },
  ): Promise<void> {
    await tx.query(
      `INSERT INTO email_verifications (user_id, token_hash, expires_at)
       VALUES ($1, $2, now() + make_interval(secs => $3))`,
      [input.userId, input.tokenHash, input.ttlSeconds],
    );
  }

  async lockByHash(tx: Queryable, tokenHash: string): Promise<VerificationRow | undefined> {
    const { rows } = await tx.query<VerificationRow>(
      `SELECT v.user_id, u.email, v.used_at IS NOT NULL AS used, v.expires_at <= now() AS expired
         FROM email_verifications v JOIN users u ON u.id = v.user_id
        WHERE v.token_hash = $1 FOR UPDATE OF v`,
      [tokenHash],
    );
    return rows[0];
  }

  async markUsed(tx: Queryable, tokenHash: string): Promise<void> {
    await tx.query('UPDATE email_verifications SET used_at = now() WHERE token_hash = $1', [tokenHash]);
  }
}
