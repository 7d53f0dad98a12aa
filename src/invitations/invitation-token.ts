import { createHash, randomBytes } from 'node:crypto';

const PREFIX = 'ota_inv_';

/** A new invitation token: 32 random bytes, shown once; only its SHA-256 is stored. */
export function generateInvitationToken(): { token: string; hash: string } {
  const token = PREFIX + randomBytes(32).toString('base64url');
  return { token, hash: hashInvitationToken(token) };
}

export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The console page that accepts it. In the fragment, so the token never reaches a server log or a Referer. */
export function invitationUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/invitation#token=${token}`;
}
