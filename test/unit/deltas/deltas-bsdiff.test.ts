import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/bundles/zip-archive.js';
import { BsdiffError, isBsdiff40, makeBsdiffPatch } from '../../../src/deltas/bsdiff.js';
import { base64UrlSha256 } from '../../../src/expo/expo.manifest.js';
import { bspatch, debianBspatch } from '../../helpers/bspatch.js';

const EXPORT = join(import.meta.dirname, '../../fixtures/expo-export');

/** The fixture's iOS launch asset, and the same bundle after a one-line change of the app's code. */
async function oneLineChange(): Promise<{ base: Buffer; target: Buffer }> {
  const metadata = JSON.parse(await readFile(join(EXPORT, 'metadata.json'), 'utf8'));
  const base = await readFile(join(EXPORT, metadata.fileMetadata.ios.bundle));
  const text = base.toString('utf8');
  expect(text).toContain('OTA fixture');
  return { base, target: Buffer.from(text.replace('OTA fixture', 'OTA fixture, second release'), 'utf8') };
}

describe('Expo bsdiff patches', () => {
  it('are classic BSDIFF40 patches that bspatch (ours and Debian) applies to give the manifest hash', async () => {
    const { base, target } = await oneLineChange();
    const patch = await makeBsdiffPatch(base, target);
    expect(patch.subarray(0, 8).toString('latin1')).toBe('BSDIFF40');
    // Three bzip2 streams follow the 32-byte header.
    const ctrlLen = Number(patch.readBigUInt64LE(8));
    const diffLen = Number(patch.readBigUInt64LE(16));
    for (const at of [32, 32 + ctrlLen, 32 + ctrlLen + diffLen])
      expect(patch.subarray(at, at + 3).toString('latin1')).toBe('BZh');

    // The client checks the patched file's base64url SHA-256 against the manifest's launchAsset.hash.
    const manifestHash = base64UrlSha256(sha256Hex(target));
    for (const patched of [bspatch(base, patch), await debianBspatch(base, patch)])
      expect(base64UrlSha256(sha256Hex(patched))).toBe(manifestHash);
  });

  it('of a one-line change are at most 10 % of the full launch asset', async () => {
    const { base, target } = await oneLineChange();
    const patch = await makeBsdiffPatch(base, target);
    expect(patch.length / target.length).toBeLessThanOrEqual(0.1);
  });

  it('are made between small files too, and refused for an empty base or target', async () => {
    const from = Buffer.from('console.log("hello");\n'.repeat(50));
    const to = Buffer.from('console.log("hello, world");\n'.repeat(50));
    const patch = await makeBsdiffPatch(from, to);
    expect(isBsdiff40(patch)).toBe(true);
    expect(bspatch(from, patch).equals(to)).toBe(true);
    await expect(makeBsdiffPatch(Buffer.alloc(0), to)).rejects.toThrow(BsdiffError);
    await expect(makeBsdiffPatch(from, Buffer.alloc(0))).rejects.toThrow(BsdiffError);
  });

  it('fail with a BsdiffError when the program is missing', async () => {
    const missing = makeBsdiffPatch(Buffer.from('a'), Buffer.from('b'), {
      command: 'no-such-bsdiff-program',
    });
    await expect(missing).rejects.toThrow(BsdiffError);
    await expect(missing).rejects.toThrow(/not installed/);
  });
});
