import {
  constants,
  createCipheriv,
  createPublicKey,
  type KeyObject,
  privateEncrypt,
  randomBytes,
} from 'node:crypto';
import { CliError } from './errors.js';
import { readPrivateKey } from './private-key.js';

/**
 * The developer's key for Capacitor releases, on this machine only. The plugin decrypts with the public half
 * (the app's `publicKey`, a PKCS #1 "RSA PUBLIC KEY" PEM) and needs RSA-2048: it refuses a signed checksum
 * that is not 256 bytes long.
 */
export interface CapacitorKey {
  key: KeyObject;
  /** What the plugin sends as `key_id`: the first 20 characters of the public key's PKCS #1 base64. */
  keyId: string;
  /** The public key as the app's capacitor.config takes it. */
  publicKeyPem: string;
}

const MODULUS_BITS = 2048;

/** Reads `--private-key <pem>`: an RSA-2048 private key in PEM, PKCS #1 or PKCS #8, unencrypted. */
export async function loadCapacitorKey(path: string): Promise<CapacitorKey> {
  const key = await readPrivateKey(path);
  if (key.asymmetricKeyType !== 'rsa' || key.asymmetricKeyDetails?.modulusLength !== MODULUS_BITS) {
    throw new CliError(
      `${path} is not an RSA-2048 key: the Capacitor plugin verifies only RSA-2048 signatures ` +
        '(make one with `openssl genrsa -out capacitor-private.pem 2048`).',
    );
  }
  const publicKeyPem = createPublicKey(key).export({ type: 'pkcs1', format: 'pem' }).toString();
  return { key, keyId: capacitorKeyId(publicKeyPem), publicKeyPem };
}

/** The plugin's key id of a public key PEM: its base64 body, without armour or white space, cut at 20. */
export function capacitorKeyId(publicKeyPem: string): string {
  return publicKeyPem
    .replace('-----BEGIN RSA PUBLIC KEY-----', '')
    .replace('-----END RSA PUBLIC KEY-----', '')
    .replace(/\s+/g, '')
    .slice(0, 20);
}

/**
 * The checksum of a signed release: the zip's SHA-256 digest (32 bytes, not its hex text) encrypted with the
 * private key, PKCS #1 v1.5 (block type 1), in lower-case hex. The plugin decrypts it with the public key and
 * compares the hex of the result with the hex SHA-256 of the zip it decrypted.
 */
export function signedChecksum(sha256: string, key: CapacitorKey): string {
  return privateEncrypt(
    { key: key.key, padding: constants.RSA_PKCS1_PADDING },
    Buffer.from(sha256, 'hex'),
  ).toString('hex');
}

export interface EncryptedZip {
  bytes: Uint8Array;
  /** `<IV base64>:<AES key encrypted with the private key, base64>`, the `session_key` devices receive. */
  sessionKey: string;
}

/**
 * The zip encrypted as the plugin decrypts it: AES-128-CBC with PKCS #7 padding under a fresh random key
 * and IV; the key travels encrypted with the private key (PKCS #1 v1.5), so only the public key opens it.
 */
export function encryptZip(zip: Uint8Array, key: CapacitorKey, random = randomBytes): EncryptedZip {
  const aesKey = random(16);
  const iv = random(16);
  const cipher = createCipheriv('aes-128-cbc', aesKey, iv);
  const bytes = Buffer.concat([cipher.update(zip), cipher.final()]);
  const wrapped = privateEncrypt({ key: key.key, padding: constants.RSA_PKCS1_PADDING }, aesKey);
  return { bytes, sessionKey: `${iv.toString('base64')}:${wrapped.toString('base64')}` };
}
