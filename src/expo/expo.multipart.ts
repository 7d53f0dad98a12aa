import { randomBytes } from 'node:crypto';
import { serializeDictionary } from 'structured-headers';
import { EXPO_SIGNATURE_ALG } from './expo.manifest.js';

/**
 * multipart/mixed bodies (RFC 2046, section 5.1) as the Expo Updates protocol wants them. Written here in
 * a few lines rather than with a form library: each answer is computed once per release and platform,
 * must carry stored bytes unchanged, and its parts need `content-disposition: inline` and an
 * `expo-signature` header, which form-data writers (multipart/form-data, streams) are not made for.
 */
export interface Part {
  name: 'manifest' | 'directive' | 'extensions';
  body: Buffer;
  /** The part's expo-signature header value, when the body is signed. */
  signature?: string | null;
}

export interface MultipartBody {
  /** `multipart/mixed; boundary=…` */
  contentType: string;
  body: Buffer;
}

const CRLF = '\r\n';

/** A boundary of 32 random hex digits; drawn again in the (never yet seen) case a body contains it. */
export function multipartMixed(parts: readonly Part[], boundary = randomBoundary()): MultipartBody {
  while (parts.some((p) => p.body.includes(boundary))) boundary = randomBoundary();
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}${CRLF}content-type: application/json; charset=utf-8${CRLF}`;
    head += `content-disposition: inline; name="${part.name}"${CRLF}`;
    if (part.signature) head += `expo-signature: ${part.signature}${CRLF}`;
    chunks.push(Buffer.from(`${head}${CRLF}`, 'latin1'), part.body, Buffer.from(CRLF, 'latin1'));
  }
  chunks.push(Buffer.from(`--${boundary}--${CRLF}`, 'latin1'));
  return { contentType: `multipart/mixed; boundary=${boundary}`, body: Buffer.concat(chunks) };
}

function randomBoundary(): string {
  return `ota-${randomBytes(16).toString('hex')}`;
}

/** The expo-signature value (an Expo SFV dictionary): `sig="<base64>", keyid="<id>", alg="rsa-v1_5-sha256"`. */
export function expoSignatureHeader(signature: string, keyId: string): string {
  return serializeDictionary(
    new Map([
      ['sig', [signature, new Map()]],
      ['keyid', [keyId, new Map()]],
      ['alg', [EXPO_SIGNATURE_ALG, new Map()]],
    ]),
  );
}
