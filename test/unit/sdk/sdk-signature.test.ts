import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AvailableUpdate } from '../../../client/types.js';
import { base64Decode, parsePublicKey, SignatureError, verifyRsaSha256 } from '../../../sdk/signature.js';
import { OtaUpdates } from '../../../sdk/updates.js';
import { checkManifestBytes } from '../../../src/expo/check-manifest.js';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
const spki = publicKey.export({ type: 'spki', format: 'pem' }) as string;
const pkcs1 = publicKey.export({ type: 'pkcs1', format: 'pem' }) as string;

/** A self-signed certificate for `other`'s key, made by openssl (the key is made here: keygen is slow). */
function certificate(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ota-sdk-cert-'));
  try {
    writeFileSync(join(dir, 'k.pem'), other.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const args = ['req', '-x509', '-new', '-key', join(dir, 'k.pem'), '-out', join(dir, 'c.pem')];
    execFileSync('openssl', [...args, '-days', '1', '-subj', '/CN=sdk test'], { stdio: 'ignore' });
    return readFileSync(join(dir, 'c.pem'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('RSA-SHA256 verification in plain TypeScript', () => {
  it('reads SPKI, PKCS #1 and certificate PEM to the same kind of key', () => {
    const a = parsePublicKey(spki);
    const b = parsePublicKey(pkcs1);
    expect(a).toEqual(b);
    expect(a.size).toBe(256);
    expect(a.e).toBe(65537n);
    const fromCert = parsePublicKey(certificate());
    expect(fromCert).toEqual(
      parsePublicKey(other.publicKey.export({ type: 'spki', format: 'pem' }) as string),
    );
    const message = Buffer.from('signed with the certificate key');
    expect(verifyRsaSha256(fromCert, message, sign('sha256', message, other.privateKey))).toBe(true);
  });

  it('agrees with node:crypto on valid, tampered and foreign signatures', () => {
    const key = parsePublicKey(spki);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(), (data, flip) => {
        const signature = sign('sha256', data, privateKey);
        expect(verifyRsaSha256(key, data, signature)).toBe(true);
        const tampered = Uint8Array.from(signature);
        tampered[flip % tampered.length]! ^= 0x01;
        expect(verifyRsaSha256(key, data, tampered)).toBe(false);
        expect(verifyRsaSha256(key, data, sign('sha256', data, other.privateKey))).toBe(false);
        expect(verifyRsaSha256(key, data, signature.subarray(1))).toBe(false);
      }),
      { numRuns: 30 },
    );
  });

  it('decodes base64 like Buffer and refuses other characters', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        expect(Buffer.from(base64Decode(Buffer.from(bytes).toString('base64')))).toEqual(Buffer.from(bytes));
      }),
    );
    expect(() => base64Decode('ab$c')).toThrow(SignatureError);
    expect(() => parsePublicKey('not a key')).toThrow(SignatureError);
  });
});

describe('OtaUpdates with codeSigning', () => {
  const appId = randomUUID();
  const moduleId = randomUUID();
  const base: AvailableUpdate = {
    module_id: moduleId,
    version: '1.2.0',
    sha256: 'ab'.repeat(32),
    size: 1234,
    url: 'http://127.0.0.1:1/api/v1/bundles/x',
    mandatory: false,
    notes: '',
  };
  const manifest = checkManifestBytes({
    app_id: appId,
    module_id: moduleId,
    version: '1.2.0',
    channel: 'production',
    sha256: base.sha256,
    size: 1234,
    mandatory: false,
    created_at: new Date(),
  });
  const signed = (key = privateKey, keyid = 'main') => ({
    ...base,
    signature: {
      manifest: manifest.toString('utf8'),
      sig: sign('sha256', manifest, key).toString('base64'),
      keyid,
      alg: 'rsa-v1_5-sha256' as const,
    },
  });
  const device = (update: AvailableUpdate | null) =>
    new OtaUpdates({
      apiUrl: 'http://127.0.0.1:1',
      appId,
      deviceId: 'device-1',
      codeSigning: { certificate: spki, keyId: 'main' },
      events: { autoFlush: false },
      fetch: async () =>
        new Response(JSON.stringify({ update }), { headers: { 'content-type': 'application/json' } }),
    });

  it('returns a release signed by the configured key', async () => {
    await expect(device(signed()).checkForUpdate()).resolves.toMatchObject({ module_id: moduleId });
    await expect(device(null).checkForUpdate()).resolves.toBeNull();
  });

  it('refuses an unsigned release, another key, another key id and an offer that differs from its manifest', async () => {
    for (const update of [
      base,
      signed(other.privateKey),
      signed(privateKey, 'rotated'),
      { ...signed(), sha256: 'cd'.repeat(32) },
      { ...signed(), size: 99 },
      { ...signed(), mandatory: true },
    ]) {
      await expect(device(update).checkForUpdate()).rejects.toBeInstanceOf(SignatureError);
    }
  });
});
