import { newSecretToken, sha256Hex } from '../platform/secret-tokens.js';

/** A new invitation token, shown once; only its SHA-256 is stored. */
export const generateInvitationToken = () => newSecretToken('ota_inv_');

export const hashInvitationToken = sha256Hex;

/** The console page that accepts it. In the fragment, so the token never reaches a server log or a Referer. */
export function invitationUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/invitation#token=${token}`;
}
