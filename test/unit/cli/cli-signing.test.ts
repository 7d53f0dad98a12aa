import { generateKeyPairSync, verify } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jwtVerify } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { isZipBytes, SIGNATURE_PATH, signCodePushZip } from '../../../cli/codepush-signature.js';
import { CliError } from '../../../cli/errors.js';
import { loadSigningKey, signDraft } from '../../../cli/signing.js';
import type { ReleaseDraft } from '../../../client/types.js';
import { readZipFiles, sha256Hex, writeZip } from '../../../src/bundles/zip-archive.js';
import { codePushFolderHash } from '../../../src/deltas/codepush-package.js';

const dir = mkdtempSync(join(tmpdir(), 'ota-cli-signing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('ota release --private-key', () => {
  it('reads RSA keys as PKCS #1 (npx expo-updates codesigning:generate) and PKCS #8 (openssl req)', async () => {
    for (const type of ['pkcs1', 'pkcs8'] as const) {
      const path = file(`${type}.pem`, rsa.privateKey.export({ type, format: 'pem' }) as string);
      const key = await loadSigningKey(path, 'main');
      const draft = {
        parts: {
          ios: Buffer.from('{"id":"a"}').toString('base64'),
          directive: Buffer.from('{}').toString('base64'),
        },
      } as unknown as ReleaseDraft;
      const signatures = signDraft(draft, key);
      expect(Object.keys(signatures).sort()).toEqual(['directive', 'ios']);
      const ok = verify(
        'sha256',
        Buffer.from('{"id":"a"}'),
        rsa.publicKey,
        Buffer.from(signatures.ios!, 'base64'),
      );
      expect(ok).toBe(true);
    }
  });

  it('refuses what cannot sign a release, before any request', async () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const ecPath = file('ec.pem', ec.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
    const rsaPath = file('rsa.pem', rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string);
    await expect(loadSigningKey(ecPath, 'main')).rejects.toThrow(/RSA/);
    await expect(loadSigningKey(join(dir, 'missing.pem'), 'main')).rejects.toThrow(CliError);
    await expect(loadSigningKey(file('junk.pem', 'not a key'), 'main')).rejects.toThrow(
      /not an unencrypted PEM private key/,
    );
    await expect(loadSigningKey(rsaPath, 'has space')).rejects.toThrow(/--key-id/);
  });
});

describe("CodePush's .codepushrelease signature", () => {
  const entry = (path: string, text: string) => {
    const bytes = Buffer.from(text);
    return { path, bytes, sha256: sha256Hex(bytes) };
  };

  it("signs a zip's folder hash as the code-push CLI does, which the client's check accepts", async () => {
    const files = [
      entry('CodePush/index.android.bundle', 'console.log(1);'),
      entry('CodePush/assets/logo.png', 'png'),
      // An earlier signature is replaced, never hashed.
      entry('CodePush/.codepushrelease', 'stale'),
    ];
    const zip = await writeZip(files);
    const { bytes, contentHash } = await signCodePushZip(zip, rsa.privateKey);
    const unzipped = await readZipFiles(Buffer.from(bytes));
    expect(unzipped.map((f) => f.path).sort()).toEqual([
      'CodePush/.codepushrelease',
      'CodePush/assets/logo.png',
      'CodePush/index.android.bundle',
    ]);
    // The service's folder hash (package_hash) of the signed zip is the claimed one.
    expect(codePushFolderHash(unzipped)).toBe(contentHash);
    const jwt = unzipped.find((f) => f.path === SIGNATURE_PATH)!.bytes.toString('utf8');
    const { payload, protectedHeader } = await jwtVerify(jwt, rsa.publicKey, { algorithms: ['RS256'] });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload).toMatchObject({ claimVersion: '1.0.0', contentHash });
    expect(isZipBytes(bytes)).toBe(true);
    expect(isZipBytes(Buffer.from('var a;'))).toBe(false);
  });

  it('explains a zip it cannot read', async () => {
    const broken = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(20)]);
    await expect(signCodePushZip(broken, rsa.privateKey)).rejects.toThrow(CliError);
  });
});
