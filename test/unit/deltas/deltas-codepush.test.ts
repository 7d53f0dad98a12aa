import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import {
  type ArchiveFile,
  hashZipFiles,
  readZipFiles,
  sha256Hex,
  writeZip,
  ZipArchiveError,
} from '../../../src/bundles/zip-archive.js';
import { codePushFolderHash, makeDiffPackage } from '../../../src/deltas/codepush-package.js';
import { packageFactsOf } from '../../../src/deltas/package-facts.js';
import { clientFolderHash, installLikeClient, unzipTo } from '../../helpers/codepush-client.js';

const file = (path: string, text: string): ArchiveFile => {
  const bytes = Buffer.from(text);
  return { path, bytes, sha256: sha256Hex(bytes) };
};

// A package as `code-push release-react` zips it: everything under a `CodePush/` root folder.
const base = [
  file('CodePush/index.android.bundle', 'var a = 1;\nvar b = 2;\n'.repeat(200)),
  file('CodePush/assets/logo.png', 'png-bytes-1'),
  file('CodePush/assets/old.png', 'to be deleted'),
  file('CodePush/.codepushrelease', 'jwt-of-base'),
];
const target = [
  file('CodePush/index.android.bundle', 'var a = 1;\nvar b = 3;\n'.repeat(200)),
  file('CodePush/assets/logo.png', 'png-bytes-1'),
  file('CodePush/assets/new.png', 'brand new'),
  file('CodePush/.codepushrelease', 'jwt-of-target'),
  file('CodePush/.DS_Store', 'finder junk'),
  file('__MACOSX/CodePush/._logo.png', 'resource fork'),
];

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ota-codepush-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('CodePush folder hash', () => {
  it('equals the hash the client computes over the unzipped folder (root folder kept, junk and signature left out)', async () => {
    const folder = join(work, 'full');
    await unzipTo(await writeZip(target), folder);
    expect(codePushFolderHash(target)).toBe(await clientFolderHash(folder));
  });

  it('is the SHA-256 of the compact JSON array of sorted "<path>:<sha256>" strings', () => {
    const entries = [
      { path: 'b.js', sha256: 'b'.repeat(64) },
      { path: 'a/x.png', sha256: 'a'.repeat(64) },
    ];
    const expected = sha256Hex(Buffer.from(`["a/x.png:${'a'.repeat(64)}","b.js:${'b'.repeat(64)}"]`));
    expect(codePushFolderHash(entries)).toBe(expected);
  });

  it('leaves out an app.json at the root, which the client deletes before hashing', async () => {
    const withMetadata = [...target, file('app.json', '{"label":"v1"}')];
    const folder = join(work, 'metadata');
    await unzipTo(await writeZip(withMetadata), folder);
    await rm(join(folder, 'app.json'));
    expect(codePushFolderHash(withMetadata)).toBe(await clientFolderHash(folder));
    expect(codePushFolderHash(withMetadata)).toBe(codePushFolderHash(target));
  });

  it('orders paths by UTF-16 code units, as Java and the CLI do (upper case before lower case)', () => {
    const entries = [
      { path: 'a.js', sha256: '1'.repeat(64) },
      { path: 'B.js', sha256: '2'.repeat(64) },
    ];
    const expected = sha256Hex(Buffer.from(`["B.js:${'2'.repeat(64)}","a.js:${'1'.repeat(64)}"]`));
    expect(codePushFolderHash(entries)).toBe(expected);
  });
});

describe('CodePush diff packages', () => {
  it('rebuild the target when applied the way the client applies them, and the folder hash verifies', async () => {
    const current = join(work, 'current');
    await unzipTo(await writeZip(base), current);
    // The client keeps its metadata in the package folder.
    await writeFile(join(current, 'app.json'), '{"packageHash":"base"}');

    const diff = (await makeDiffPackage(base, target))!;
    expect(diff.deletedFiles).toEqual(['CodePush/assets/old.png']);
    expect(diff.changed).toEqual([
      'CodePush/index.android.bundle',
      'CodePush/assets/new.png',
      'CodePush/.codepushrelease',
    ]);
    const inZip = (await readZipFiles(diff.zip)).map((f) => f.path);
    expect(inZip[0]).toBe('hotcodepush.json');
    expect(inZip).not.toContain('CodePush/assets/logo.png');

    const installed = await installLikeClient(diff.zip, current, join(work, 'install-diff'));
    expect(await clientFolderHash(installed)).toBe(codePushFolderHash(target));
  });

  it('with nothing changed but the zip bytes, is a zip holding only an empty hotcodepush.json', async () => {
    const diff = (await makeDiffPackage(base, base))!;
    const files = await readZipFiles(diff.zip);
    expect(files.map((f) => [f.path, f.bytes.toString()])).toEqual([
      ['hotcodepush.json', '{"deletedFiles":[]}'],
    ]);
  });

  it('is not made for a target that holds its own hotcodepush.json at the root', async () => {
    expect(await makeDiffPackage(base, [...target, file('hotcodepush.json', '{}')])).toBeNull();
  });
});

describe('zip reading', () => {
  const zipOf = (build: (zip: yazl.ZipFile) => void): Promise<Buffer> =>
    new Promise((resolve, reject) => {
      const zip = new yazl.ZipFile();
      build(zip);
      zip.end();
      const chunks: Buffer[] = [];
      zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
      zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
      zip.outputStream.on('error', reject);
    });

  it('skips directory entries', async () => {
    const zip = await zipOf((z) => {
      z.addEmptyDirectory('CodePush/');
      z.addBuffer(Buffer.from('x'), 'CodePush/main.jsbundle');
    });
    expect((await readZipFiles(zip)).map((f) => f.path)).toEqual(['CodePush/main.jsbundle']);
  });

  it('refuses the same path twice and a path that is both a file and a folder', async () => {
    const twice = await zipOf((z) => {
      z.addBuffer(Buffer.from('1'), 'a.js');
      z.addBuffer(Buffer.from('2'), 'a.js');
    });
    await expect(readZipFiles(twice)).rejects.toThrow(ZipArchiveError);
    const clash = await zipOf((z) => {
      z.addBuffer(Buffer.from('1'), 'a');
      z.addBuffer(Buffer.from('2'), 'a/b.js');
    });
    await expect(readZipFiles(clash)).rejects.toThrow(/both a file and a folder/);
  });

  it('refuses what is not a zip, and archives past the limits', async () => {
    await expect(readZipFiles(Buffer.from('PK\x03\x04 but nothing after'))).rejects.toThrow(ZipArchiveError);
    const big = await writeZip([file('a.js', 'x'.repeat(1000)), file('b.js', 'y'.repeat(1000))]);
    await expect(readZipFiles(big, { maxBytes: 1500 })).rejects.toThrow(/more than 1500 bytes/);
    await expect(readZipFiles(big, { maxEntries: 1 })).rejects.toThrow(/at most 1/);
  });
});

describe('packageFactsOf (a push reads its bytes before the release is offered)', () => {
  it("gives a zip's folder hash and file count, as the client hashes the unzipped folder", async () => {
    const zip = await writeZip(target);
    const folder = join(work, 'facts');
    await unzipTo(zip, folder);
    expect(await packageFactsOf(zip)).toEqual({
      is_zip: true,
      folder_hash: await clientFolderHash(folder),
      file_count: target.length,
    });
    // hashZipFiles reads what readZipFiles reads, without keeping the bytes.
    expect(await hashZipFiles(zip)).toEqual(
      (await readZipFiles(zip)).map(({ path, sha256 }) => ({ path, sha256 })),
    );
  });

  it('says a single file is no zip, and keeps an unreadable zip without a folder hash', async () => {
    expect(await packageFactsOf(Buffer.from('console.log(1);'))).toEqual({
      is_zip: false,
      folder_hash: null,
      file_count: 0,
    });
    const broken = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('not really a zip')]);
    expect(await packageFactsOf(broken)).toEqual({ is_zip: true, folder_hash: null, file_count: 0 });
    await expect(hashZipFiles(broken)).rejects.toBeInstanceOf(ZipArchiveError);
  });
});
