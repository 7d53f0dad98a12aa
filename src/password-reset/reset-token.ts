import { newSecretToken, sha256Hex } from '../platform/secret-tokens.js';

/** A new reset token, shown once (e-mailed or printed); only its SHA-256 is stored. */
export const generateResetToken = () => newSecretToken('ota_pwr_');

export const hashResetToken = sha256Hex;

/** The console page that sets the new password; the token rides in the fragment, out of logs and Referers. */
export function resetUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/reset-password#token=${token}`;
}
