import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { CliError } from './errors.js';

/**
 * Reads the PEM private key `--private-key` names (PKCS #1 or PKCS #8, unencrypted), with the refusals a
 * person can act on: a missing file, or a file that holds no key. It never leaves this machine; what kind
 * of key a release needs is for its caller to check (signing.ts, capacitor-crypto.ts).
 */
export async function readPrivateKey(path: string): Promise<KeyObject> {
  let pem: string;
  try {
    pem = await readFile(path, 'utf8');
  } catch {
    throw new CliError(`The private key file ${path} does not exist or cannot be read.`);
  }
  try {
    return createPrivateKey(pem);
  } catch {
    throw new CliError(`${path} is not an unencrypted PEM private key.`);
  }
}
