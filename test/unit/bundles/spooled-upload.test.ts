import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobSourceError, BlobTooLargeError } from '../../../src/bundles/blob-store.js';
import { spoolUpload } from '../../../src/bundles/spooled-upload.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'spool-test-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('an upload spooled to a file', () => {
  it('is written whole, named by its sha256 and size', async () => {
    const bytes = Buffer.from('the bytes of a bundle, in three pieces');
    const spooled = await spoolUpload(
      Readable.from([bytes.subarray(0, 5), bytes.subarray(5, 20), bytes.subarray(20)]),
      dir,
      { maxBytes: 1024, length: bytes.length },
    );
    expect(spooled.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(spooled.size).toBe(bytes.length);
    expect(await readFile(spooled.path)).toEqual(bytes);
  });

  it('stops at the limit with BlobTooLargeError, leaving the source open and drained', async () => {
    const source = new PassThrough();
    const spooled = spoolUpload(source, dir, { maxBytes: 4 });
    source.write(Buffer.from('too long'));
    await expect(spooled).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(source.destroyed).toBe(false);
    // What the client still sends is read and dropped, so the HTTP layer can answer on the connection.
    source.end(Buffer.from('more'));
    await new Promise((resolve) => source.once('end', resolve));
  });

  it('refuses fewer bytes than declared, and a source that fails midway, as a cut upload', async () => {
    await expect(
      spoolUpload(Readable.from([Buffer.from('short')]), dir, { maxBytes: 1024, length: 10 }),
    ).rejects.toBeInstanceOf(BlobSourceError);
    const failing = new PassThrough();
    const spooled = spoolUpload(failing, dir, { maxBytes: 1024 });
    failing.write(Buffer.from('half'));
    failing.destroy(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    await expect(spooled).rejects.toBeInstanceOf(BlobSourceError);
    // The files stay in the caller's folder, which the caller removes.
    expect((await readdir(dir)).length).toBe(2);
  });
});
