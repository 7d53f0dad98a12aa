import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  BlobSourceError,
  type BlobStore,
  BlobStoreUnavailableError,
  BlobTooLargeError,
  type ByteRange,
  type ListedBlob,
  type PutOptions,
  type StoredBlob,
} from './blob-store.js';

/** Blobs in memory, for unit tests of what stores bundles. Same refusals as the disk store. */
export class FakeBlobStore implements BlobStore {
  readonly kind = 'disk';
  readonly blobs = new Map<string, Buffer>();
  readonly written = new Map<string, Date>();
  /** Set to make every call fail as an unreachable store would. */
  unavailable = false;
  now: () => Date = () => new Date();

  async put(source: Readable, options: PutOptions): Promise<StoredBlob> {
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
    this.check();
    if (!this.blobs.has(sha256)) this.written.set(sha256, this.now());
    this.blobs.set(sha256, bytes);
    return { sha256, size: bytes.length };
  }

  async putFile(path: string, blob: StoredBlob): Promise<void> {
    this.check();
    if (this.blobs.has(blob.sha256)) return;
    this.written.set(blob.sha256, this.now());
    this.blobs.set(blob.sha256, await readFile(path));
  }

  async delete(sha256: string): Promise<void> {
    this.check();
    this.blobs.delete(sha256);
    this.written.delete(sha256);
  }

  async *list(): AsyncIterable<ListedBlob> {
    this.check();
    for (const [sha256, bytes] of [...this.blobs])
      yield { sha256, size: bytes.length, modifiedAt: this.written.get(sha256) ?? new Date(0) };
  }

  async deleteAbandonedUploads(): Promise<number> {
    this.check();
    return 0;
  }

  async ping(): Promise<void> {
    this.check();
  }

  private check(): void {
    if (this.unavailable) throw new BlobStoreUnavailableError(new Error('fake store set unavailable'));
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
