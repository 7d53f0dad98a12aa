import {
  constants,
  createDecipheriv,
  createHash,
  createPublicKey,
  type KeyObject,
  publicDecrypt,
} from 'node:crypto';

/**
 * The plugin's CryptoCipher (@capgo/capacitor-updater 8: android/.../CryptoCipher.java, ios/.../CryptoCipher.swift,
 * RSA.swift, AES.swift), on Node's crypto only: how a device reads its `publicKey`, computes its `key_id`,
 * decrypts a signed checksum and an encrypted bundle. Line references: docs/reference/capacitor-protocol.md.
 */

const PKCS1_ARMOUR = /-----(BEGIN|END) RSA PUBLIC KEY-----/g;

/**
 * The public key as Android loads it (CryptoCipher.stringToPublicKey): armour and all white space removed,
 * base64-decoded to PKCS #1 DER, then wrapped in an X.509 SubjectPublicKeyInfo with the rsaEncryption
 * algorithm identifier, because Java's KeyFactory reads only that.
 */
export function loadPublicKey(publicKeyPem: string): KeyObject {
  const pkcs1 = Buffer.from(
    publicKeyPem.replace(/\s+/g, '').replace(/-----(BEGIN|END)RSAPUBLICKEY-----/g, ''),
    'base64',
  );
  const algorithm = Buffer.from('300d06092a864886f70d0101010500', 'hex');
  const bitString = der(0x03, Buffer.concat([Buffer.from([0]), pkcs1]));
  const spki = der(0x30, Buffer.concat([algorithm, bitString]));
  return createPublicKey({ key: spki, format: 'der', type: 'spki' });
}

/** A DER tag-length-value with the length forms CryptoCipher.createDERLengthEncoding writes (up to 64 KiB). */
function der(tag: number, value: Buffer): Buffer {
  const n = value.length;
  const length = n <= 0x7f ? [n] : n <= 0xff ? [0x81, n] : [0x82, n >> 8, n & 0xff];
  return Buffer.concat([Buffer.from([tag, ...length]), value]);
}

/**
 * The `key_id` a device sends: the first 20 characters of the key's base64 (calcKeyId). Android strips all
 * white space, iOS only new lines and spaces; a PEM written by OpenSSL or Node gives both the same.
 */
export function keyIdOf(publicKeyPem: string, platform: 'android' | 'ios' = 'android'): string {
  const body =
    platform === 'android'
      ? publicKeyPem.replace(/\s+/g, '').replace(/-----(BEGIN|END)RSAPUBLICKEY-----/g, '')
      : publicKeyPem.replace(PKCS1_ARMOUR, '').replace(/[\n\r ]/g, '');
  return body.slice(0, 20);
}

/** RSA "decryption" with the public key of data the private key encrypted: PKCS #1 v1.5, block type 1. */
export function rsaPublicDecrypt(key: KeyObject, data: Buffer): Buffer {
  return publicDecrypt({ key, padding: constants.RSA_PKCS1_PADDING }, data);
}

/**
 * The same operation as iOS performs it by hand (RSA.swift, ManualRSAPublicKey.decrypt): c^e mod n, left-padded
 * to 256 bytes, then everything up to the first zero after a leading 00 01 dropped. It checks neither the
 * 0xFF padding nor the length, which is why iOS tests the result's length itself.
 */
export function iosManualDecrypt(key: KeyObject, data: Buffer): Buffer {
  const jwk = key.export({ format: 'jwk' });
  const n = toBigInt(Buffer.from(jwk.n!, 'base64url'));
  const e = toBigInt(Buffer.from(jwk.e!, 'base64url'));
  let result = 1n;
  let base = toBigInt(data) % n;
  for (let exp = e; exp > 0n; exp >>= 1n) {
    if (exp & 1n) result = (result * base) % n;
    base = (base * base) % n;
  }
  const hex = result.toString(16);
  const bytes = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  const padded = Buffer.concat([Buffer.alloc(Math.max(0, 256 - bytes.length)), bytes]);
  let start = 0;
  if (padded.length > 2 && padded[0] === 0 && padded[1] === 1) {
    const zero = padded.indexOf(0, 2);
    if (zero >= 0) start = zero + 1;
  }
  return start < padded.length ? padded.subarray(start) : padded;
}

function toBigInt(bytes: Buffer): bigint {
  return bytes.length === 0 ? 0n : BigInt(`0x${bytes.toString('hex')}`);
}

/** Thrown where the plugin fails: the device then reports `failure` as a statistic. */
export class PluginFailure extends Error {
  constructor(readonly failure: string) {
    super(failure);
  }
}

/**
 * CryptoCipher.decryptChecksum: with no public key the checksum is taken as it is; otherwise it is hex (or,
 * for older command-line tools, base64) of exactly 256 bytes, decrypted with the public key, and returned as
 * the hex of the result (32 bytes for a SHA-256).
 */
export function decryptChecksum(checksum: string, publicKeyPem: string): string {
  if (publicKeyPem === '') return checksum;
  const bytes = /^[0-9a-fA-F]+$/.test(checksum)
    ? Buffer.from(checksum, 'hex')
    : Buffer.from(checksum, 'base64');
  if (bytes.length !== 256) throw new PluginFailure('checksum_not_signed');
  try {
    return rsaPublicDecrypt(loadPublicKey(publicKeyPem), bytes).toString('hex');
  } catch {
    throw new PluginFailure('checksum_decrypt_failed');
  }
}

/**
 * CryptoCipher.decryptFile: without a public key, or a session key that is not `<iv>:<key>`, the bytes are
 * left as they are; a public key that is not a PKCS #1 PEM is ignored too. Otherwise the AES-128 key is
 * decrypted with the public key and the bundle with AES-128-CBC, PKCS #7 padding (Java's "PKCS5Padding").
 */
export function decryptBundle(bytes: Uint8Array, publicKeyPem: string, sessionKey: string): Buffer {
  const parts = sessionKey.split(':');
  if (publicKeyPem === '' || sessionKey === '' || parts.length !== 2) return Buffer.from(bytes);
  if (!publicKeyPem.startsWith('-----BEGIN RSA PUBLIC KEY-----')) return Buffer.from(bytes);
  try {
    const iv = Buffer.from(parts[0]!, 'base64');
    const aesKey = rsaPublicDecrypt(loadPublicKey(publicKeyPem), Buffer.from(parts[1]!, 'base64'));
    // iOS refuses anything but a 16-byte IV and key (CryptoCipher.swift); Java's cipher refuses them too.
    if (iv.length !== 16 || aesKey.length !== 16 || bytes.length === 0) throw new Error('bad sizes');
    const decipher = createDecipheriv('aes-128-cbc', aesKey, iv);
    return Buffer.concat([decipher.update(bytes), decipher.final()]);
  } catch {
    throw new PluginFailure('decrypt_failed');
  }
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
