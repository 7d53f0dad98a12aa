import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  BlobSourceError,
  type BlobStore,
  BlobTooLargeError,
  type ByteRange,
  type StoredBlob,
} from './blob-store.js';

/** Blobs in memory, for unit tests of what stores bundles. Same refusals as the disk store. */
export class FakeBlobStore implements BlobStore {
  readonly blobs = new Map<string, Buffer>();

  async put(source: Readable, options: { maxBytes: number }): Promise<StoredBlob> {
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of source) {
        const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
        size += bytes.length;
        if (size > options.maxBytes) throw new BlobTooLargeError(options.maxBytes);
        chunks.push(bytes);
      }
    } catch (err) {
      if (err instanceof BlobTooLargeError) throw err;
      throw new BlobSourceError(err);
    }
    const bytes = Buffer.concat(chunks);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    this.blobs.set(sha256, bytes);
    return { sha256, size: bytes.length };
  }

  async has(sha256: string): Promise<boolean> {
    return this.blobs.has(sha256);
  }

  async size(sha256: string): Promise<number | undefined> {
    return this.blobs.get(sha256)?.length;
  }

  createReadStream(sha256: string, range?: ByteRange): Readable {
    const bytes = this.blobs.get(sha256);
    if (!bytes)
      return new Readable({
        read() {
          this.destroy(new Error(`no blob ${sha256}`));
        },
      });
    return Readable.from([range ? bytes.subarray(range.start, range.end + 1) : bytes]);
  }
}
