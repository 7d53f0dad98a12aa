import { sha256 } from './sha256.js';

/**
 * RSASSA-PKCS1-v1_5 with SHA-256 (RFC 8017, section 8.2.2), verification only, in plain TypeScript with
 * BigInt: React Native has neither node:crypto nor, on every engine, WebCrypto. The key comes as PEM: an
 * X.509 certificate (the one an Expo app embeds for code signing), a public key (SPKI) or an RSA public key
 * (PKCS #1). Verification is one modular exponentiation with the public exponent: milliseconds.
 */
export interface RsaPublicKey {
  n: bigint;
  e: bigint;
  /** Length of the modulus in bytes: the length of every signature. */
  size: number;
}

export class SignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignatureError';
  }
}

interface Der {
  tag: number;
  /** The content bytes. */
  value: Uint8Array;
  /** Offset just past this element in the buffer it was read from. */
  end: number;
}

function readDer(bytes: Uint8Array, offset: number): Der {
  const tag = bytes[offset];
  let length = bytes[offset + 1];
  if (tag === undefined || length === undefined) throw new SignatureError('truncated key (DER)');
  let start = offset + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4) throw new SignatureError('unsupported DER length');
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + (bytes[start + i] ?? 0);
    start += count;
  }
  const end = start + length;
  if (end > bytes.length) throw new SignatureError('truncated key (DER)');
  return { tag, value: bytes.subarray(start, end), end };
}

function children(value: Uint8Array): Der[] {
  const out: Der[] = [];
  for (let offset = 0; offset < value.length; ) {
    const child = readDer(value, offset);
    out.push(child);
    offset = child.end;
  }
  return out;
}

const SEQUENCE = 0x30;
const INTEGER = 0x02;
const BIT_STRING = 0x03;
// 1.2.840.113549.1.1.1
const RSA_ENCRYPTION = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];

function toBigInt(bytes: Uint8Array): bigint {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return n;
}

function rsaPublicKey(der: Uint8Array): RsaPublicKey {
  const seq = readDer(der, 0);
  const [n, e] = children(seq.value);
  if (seq.tag !== SEQUENCE || n?.tag !== INTEGER || e?.tag !== INTEGER)
    throw new SignatureError('not an RSA key');
  let modulus = n.value;
  while (modulus[0] === 0) modulus = modulus.subarray(1);
  return { n: toBigInt(modulus), e: toBigInt(e.value), size: modulus.length };
}

function fromSpki(spki: Der): RsaPublicKey {
  const [algorithm, key] = children(spki.value);
  const oid = algorithm ? children(algorithm.value)[0] : undefined;
  if (
    !oid ||
    oid.value.length !== RSA_ENCRYPTION.length ||
    oid.value.some((b, i) => b !== RSA_ENCRYPTION[i])
  ) {
    throw new SignatureError('the key is not an RSA key');
  }
  if (key?.tag !== BIT_STRING) throw new SignatureError('malformed public key');
  // The first byte of a BIT STRING counts unused bits (0 here).
  return rsaPublicKey(key.value.subarray(1));
}

/** Reads a PEM certificate, SPKI public key or PKCS #1 RSA public key. */
export function parsePublicKey(pem: string): RsaPublicKey {
  const match = /-----BEGIN ([A-Z ]+)-----([\s\S]+?)-----END \1-----/.exec(pem);
  if (!match) throw new SignatureError('no PEM block in the key');
  const der = base64Decode(match[2]!.replace(/\s+/g, ''));
  const kind = match[1];
  if (kind === 'RSA PUBLIC KEY') return rsaPublicKey(der);
  const top = readDer(der, 0);
  if (kind === 'PUBLIC KEY') return fromSpki(top);
  if (kind === 'CERTIFICATE') {
    const [tbs] = children(top.value);
    if (!tbs) throw new SignatureError('malformed certificate');
    const fields = children(tbs.value);
    // An explicit version ([0]) comes first when present; the public key is the sixth field after it.
    const spki = fields[fields[0]?.tag === 0xa0 ? 6 : 5];
    if (!spki) throw new SignatureError('malformed certificate');
    return fromSpki(spki);
  }
  throw new SignatureError(`unsupported PEM block ${kind}`);
}

function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
    e >>= 1n;
  }
  return result;
}

// DigestInfo for SHA-256 (RFC 8017, section 9.2, note 1).
const SHA256_PREFIX = [
  0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04,
  0x20,
];

/** True when `signature` is the RSA-SHA256 (PKCS #1 v1.5) signature of `data` under `key`. */
export function verifyRsaSha256(key: RsaPublicKey, data: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== key.size) return false;
  const s = toBigInt(signature);
  if (s >= key.n) return false;
  let m = modPow(s, key.e, key.n);
  const em = new Uint8Array(key.size);
  for (let i = key.size - 1; i >= 0 && m > 0n; i--) {
    em[i] = Number(m & 0xffn);
    m >>= 8n;
  }
  const digest = sha256(data);
  const tail = SHA256_PREFIX.length + digest.length;
  const padding = key.size - 3 - tail;
  if (padding < 8) return false;
  let diff = em[0]! | (em[1]! ^ 0x01) | em[2 + padding]!;
  for (let i = 2; i < 2 + padding; i++) diff |= em[i]! ^ 0xff;
  const start = 3 + padding;
  for (let i = 0; i < SHA256_PREFIX.length; i++) diff |= em[start + i]! ^ SHA256_PREFIX[i]!;
  for (let i = 0; i < digest.length; i++) diff |= em[start + SHA256_PREFIX.length + i]! ^ digest[i]!;
  return diff === 0;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 (padding optional); throws on any other character. */
export function base64Decode(text: string): Uint8Array {
  const clean = text.replace(/=+$/, '');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let value = 0;
  let index = 0;
  for (const ch of clean) {
    const v = ALPHABET.indexOf(ch);
    if (v < 0) throw new SignatureError('invalid base64');
    value = (value << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[index++] = (value >> bits) & 0xff;
    }
  }
  return out.subarray(0, index);
}
