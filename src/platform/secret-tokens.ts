import { createHash, randomBytes } from 'node:crypto';

/**
 * A bearer secret the service hands out once (API keys, invitation tokens): a recognisable prefix and 32
 * random bytes, so it cannot be guessed; only its SHA-256 is stored, which a lookup can match exactly.
 */
export function newSecretToken(prefix: string): { token: string; hash: string } {
  const token = prefix + randomBytes(32).toString('base64url');
  return { token, hash: sha256Hex(token) };
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
