import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Signing secrets at rest: AES-256-GCM under WEBHOOK_SECRET_KEY. The secret must be recoverable (it keys
 * every signature), so it is encrypted rather than hashed. Stored form: `v1.<iv>.<tag>.<ciphertext>`, each
 * part base64url; the version leaves room for key rotation.
 */
const VERSION = 'v1';

export function encryptSecret(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : b64(p))).join('.');
}

export function decryptSecret(key: Buffer, stored: string): string {
  const [version, iv, tag, data] = stored.split('.');
  if (version !== VERSION || iv === undefined || tag === undefined || data === undefined) {
    throw new Error('unrecognised webhook secret format');
  }
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

/** A new signing secret: `whsec_` and 32 random bytes in base64url. */
export function generateSigningSecret(): string {
  return `whsec_${b64(randomBytes(32))}`;
}

function b64(buf: Buffer): string {
  return buf.toString('base64url');
}
