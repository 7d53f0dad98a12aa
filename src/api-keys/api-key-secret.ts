import { newSecretToken, sha256Hex } from '../platform/secret-tokens.js';

const PREFIX = 'ota_';

/** A new API key, shown once; only its SHA-256 is stored. */
export function generateApiKey(): { key: string; hash: string } {
  const { token, hash } = newSecretToken(PREFIX);
  return { key: token, hash };
}

export const hashApiKey = sha256Hex;

export function looksLikeApiKey(value: string): boolean {
  return value.startsWith(PREFIX) && value.length <= 100;
}
