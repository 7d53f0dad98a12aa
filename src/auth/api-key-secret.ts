import { createHash, randomBytes } from 'node:crypto';

const PREFIX = 'ota_';

/** A new API key: 32 random bytes, shown once; only its SHA-256 is stored (the key is not guessable). */
export function generateApiKey(): { key: string; hash: string } {
  const key = PREFIX + randomBytes(32).toString('base64url');
  return { key, hash: hashApiKey(key) };
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function looksLikeApiKey(value: string): boolean {
  return value.startsWith(PREFIX) && value.length <= 100;
}
