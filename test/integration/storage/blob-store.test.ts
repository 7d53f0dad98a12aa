import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BlobSourceError, BlobTooLargeError } from '../../../src/bundles/blob-store.js';
import { fileContext } from '../../helpers/context.js';
import { temporaryUploads } from '../../helpers/test-buckets.js';

/** The store of the run (disk, or S3 in the integration-s3 project): the same behaviour on both. */

const ctx = fileContext({ withoutApp: true });

const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function listed(): Promise<string[]> {
  const out: string[] = [];
  for await (const blob of ctx.deps.blobs.list()) out.push(blob.sha256);
  return out.sort();
}

/** A source that sends `bytes` in 1 MB pieces, then fails as a connection reset would. */
function cutSource(bytes: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= bytes) {
        this.destroy(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
        return;
      }
      const piece = randomBytes(Math.min(1024 * 1024, bytes - sent));
      sent += piece.length;
      this.push(piece);
    },
  });
}

describe(`the blob store (${process.env.OTA_TEST_BLOB_STORE ?? 'disk'})`, () => {
  it('stores bytes under their sha256 and reads them whole and by range', async () => {
    const bytes = randomBytes(12 * 1024 * 1024 + 17);
    const stored = await ctx.deps.blobs.put(Readable.from([bytes.subarray(0, 7e6), bytes.subarray(7e6)]), {
      maxBytes: 64 * 1024 * 1024,
    });
    expect(stored).toEqual({ sha256: sha256Of(bytes), size: bytes.length });
    expect(await ctx.deps.blobs.has(stored.sha256)).toBe(true);
    expect(await ctx.deps.blobs.size(stored.sha256)).toBe(bytes.length);
    expect((await readAll(ctx.deps.blobs.createReadStream(stored.sha256))).equals(bytes)).toBe(true);
    const range = await readAll(ctx.deps.blobs.createReadStream(stored.sha256, { start: 10, end: 6e6 }));
    expect(range.equals(bytes.subarray(10, 6e6 + 1))).toBe(true);
    expect(await listed()).toContain(stored.sha256);
    expect(await temporaryUploads(ctx.config)).toEqual([]);
  });

  it('stores an upload of declared length the same way', async () => {
    const bytes = randomBytes(9 * 1024 * 1024 + 3);
    const stored = await ctx.deps.blobs.put(Readable.from([bytes.subarray(0, 4e6), bytes.subarray(4e6)]), {
      maxBytes: 64 * 1024 * 1024,
      length: bytes.length,
    });
    expect(stored).toEqual({ sha256: sha256Of(bytes), size: bytes.length });
    expect((await readAll(ctx.deps.blobs.createReadStream(stored.sha256))).equals(bytes)).toBe(true);
    expect(await temporaryUploads(ctx.config)).toEqual([]);
  });

  it('an upload of declared length cut midway leaves no blob and no visible temporary key', async () => {
    const before = await listed();
    const put = ctx.deps.blobs.put(cutSource(7 * 1024 * 1024), { maxBytes: 1e9, length: 20 * 1024 * 1024 });
    await expect(put).rejects.toBeInstanceOf(BlobSourceError);
    expect(await listed()).toEqual(before);
    expect(await temporaryUploads(ctx.config)).toEqual([]);
  });

  it('stores the same bytes once', async () => {
    const bytes = randomBytes(200_000);
    const before = await listed();
    const [a, b] = await Promise.all([
      ctx.deps.blobs.put(Readable.from([bytes]), { maxBytes: 1e9 }),
      ctx.deps.blobs.put(Readable.from([bytes]), { maxBytes: 1e9 }),
    ]);
    expect(a).toEqual(b);
    expect((await listed()).length - before.length).toBe(1);
    expect(await temporaryUploads(ctx.config)).toEqual([]);
  });

  it('knows nothing of a sha256 it never stored, and deletes', async () => {
    const missing = sha256Of(randomBytes(8));
    expect(await ctx.deps.blobs.size(missing)).toBeUndefined();
    expect(await ctx.deps.blobs.has(missing)).toBe(false);
    await expect(readAll(ctx.deps.blobs.createReadStream(missing))).rejects.toThrow();
    const stored = await ctx.deps.blobs.put(Readable.from([randomBytes(1000)]), { maxBytes: 1e9 });
    await ctx.deps.blobs.delete(stored.sha256);
    await ctx.deps.blobs.delete(stored.sha256);
    expect(await ctx.deps.blobs.has(stored.sha256)).toBe(false);
  });

  it('refuses more than maxBytes and leaves nothing behind', async () => {
    const before = await listed();
    const put = ctx.deps.blobs.put(cutSource(40 * 1024 * 1024), { maxBytes: 11 * 1024 * 1024 });
    await expect(put).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(await listed()).toEqual(before);
    expect(await temporaryUploads(ctx.config)).toEqual([]);
  });

  it('an upload cut midway (past several parts) leaves no blob and no visible temporary key', async () => {
    const before = await listed();
    const put = ctx.deps.blobs.put(cutSource(13 * 1024 * 1024), { maxBytes: 1e9 });
    await expect(put).rejects.toBeInstanceOf(BlobSourceError);
    expect(await listed()).toEqual(before);
    expect(await temporaryUploads(ctx.config)).toEqual([]);
  });

  it('answers the probe of readiness', async () => {
    await expect(ctx.deps.blobs.ping()).resolves.toBeUndefined();
  });
});
