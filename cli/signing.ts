import { type KeyObject, sign } from 'node:crypto';
import type { ReleaseDraft } from '@ota/client/types';
import { CliError } from './errors.js';
import { readPrivateKey } from './private-key.js';

/** The key a release is signed with, on this machine only: it never leaves it. */
export interface SigningKey {
  key: KeyObject;
  keyId: string;
}

const KEY_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Reads `--private-key <pem>`: an RSA private key in PEM (PKCS #8 or PKCS #1), as
 * `npx expo-updates codesigning:generate` or `openssl genrsa` write it. RSA is what expo-updates verifies
 * (rsa-v1_5-sha256), and the SDK verifies the same signatures.
 */
export async function loadSigningKey(path: string, keyId: string): Promise<SigningKey> {
  if (!KEY_ID.test(keyId)) throw new CliError(`--key-id must be 1-64 of A-Za-z0-9._:-, not "${keyId}".`);
  const key = await readPrivateKey(path);
  if (key.asymmetricKeyType !== 'rsa') {
    throw new CliError(`${path} is a ${key.asymmetricKeyType} key; releases are signed with RSA keys.`);
  }
  return { key, keyId };
}

/** One base64 RSA-SHA256 (PKCS #1 v1.5) signature per part, over the exact bytes the draft holds. */
export function signDraft(draft: ReleaseDraft, key: SigningKey): Record<string, string> {
  return Object.fromEntries(
    Object.entries(draft.parts).map(([part, base64]) => [
      part,
      sign('sha256', Buffer.from(base64, 'base64'), key.key).toString('base64'),
    ]),
  );
}
