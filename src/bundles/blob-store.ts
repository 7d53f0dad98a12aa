import type { Readable } from 'node:stream';

/**
 * Content-addressed storage of bundle bytes. Blobs are named by the hex sha256 of their bytes, so the same
 * bytes are stored once however often (and by whichever app) they are uploaded. The local-disk store is the
 * default (local-blob-store.ts); S3-compatible buckets are the other (s3-blob-store.ts: the upload spooled to
 * a local file while hashed, then one PutObject to its content address; HEAD for has/size; ranged GET).
 */
export interface BlobStore {
  /** Which kind of store this is (BLOB_STORE). */
  readonly kind: 'disk' | 's3';
  /**
   * Reads the stream to its end, storing the bytes under their sha256. Rejects with BlobTooLargeError as
   * soon as more than `maxBytes` arrive, leaving nothing behind. The source is never destroyed by the
   * store, so an HTTP caller can still answer on the same connection.
   */
  put(source: Readable, options: PutOptions): Promise<StoredBlob>;
  /**
   * Stores a file whose bytes its caller has hashed as `blob` (spoolUpload, in the caller's own folder);
   * nothing is written when the blob is stored already. The file may be moved rather than copied: the
   * caller only removes what is left of its folder.
   */
  putFile(path: string, blob: StoredBlob, options?: { contentType?: string }): Promise<void>;
  has(sha256: string): Promise<boolean>;
  /** Size in bytes, or undefined when no such blob exists. */
  size(sha256: string): Promise<number | undefined>;
  /** The bytes, or the inclusive byte range of them. The stream errors if the blob does not exist. */
  createReadStream(sha256: string, range?: ByteRange): Readable;
  /** Removes a blob; nothing happens when there is none. */
  delete(sha256: string): Promise<void>;
  /** Every stored blob, in no particular order, with when it was written. */
  list(): AsyncIterable<ListedBlob>;
  /** Deletes what uploads that never finished left behind before `before`; answers how many. */
  deleteAbandonedUploads(before: Date): Promise<number>;
  /** Resolves when the store can be reached (readiness); rejects saying why not. */
  ping(): Promise<void>;
}

export interface PutOptions {
  maxBytes: number;
  /** The length the upload declared (Content-Length), when it did: fewer bytes arriving is a cut upload. */
  length?: number;
  /** The type the bytes are served with from the store itself (S3 objects); application/octet-stream. */
  contentType?: string;
}

export interface ListedBlob {
  sha256: string;
  size: number;
  modifiedAt: Date;
}

export interface StoredBlob {
  sha256: string;
  size: number;
}

/** Inclusive on both ends, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The upload is larger than ${maxBytes} bytes.`);
    this.name = 'BlobTooLargeError';
  }
}

/** Raised when the upload stream fails before its end (client gone, connection reset). */
export class BlobSourceError extends Error {
  constructor(readonly reason: unknown) {
    super('The upload stream ended before it was complete.');
    this.name = 'BlobSourceError';
  }
}

/** The store could not be reached or failed (not the upload's fault): answered 503, retried by clients. */
export class BlobStoreUnavailableError extends Error {
  constructor(readonly reason: unknown) {
    super(`The blob store is unavailable: ${(reason as Error)?.message ?? String(reason)}`);
    this.name = 'BlobStoreUnavailableError';
  }
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

export function isSha256Hex(value: string): boolean {
  return SHA256_HEX.test(value);
}
