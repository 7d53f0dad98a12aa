import { generateKeyPairSync, verify } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CliError } from '../../cli/errors.js';
import { loadSigningKey, signDraft } from '../../cli/signing.js';
import type { ReleaseDraft } from '../../client/types.js';

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
      /not a PEM private key/,
    );
    await expect(loadSigningKey(rsaPath, 'has space')).rejects.toThrow(/--key-id/);
  });
});
