import { randomUUID } from 'node:crypto';
import { PassThrough, pipeline, type Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { BundleSettings } from '../config/bundle-settings.js';
import {
  BlobSourceError,
  type BlobStore,
  BlobStoreUnavailableError,
  type ByteRange,
  isSha256Hex,
  type ListedBlob,
  type PutOptions,
  type StoredBlob,
} from './blob-store.js';
import { hashingBody } from './hashing-body.js';

/** Objects never change once written: a CDN or browser may keep them for a year without asking again. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
const OCTET_STREAM = 'application/octet-stream';
/** S3's smallest part (but the last); two in flight keep a 100 MB upload's memory near 20 MB. */
const PART_SIZE = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

export type S3Settings = NonNullable<BundleSettings['s3']>;

/** A client for AWS S3, R2, MinIO, Garage, SeaweedFS: credentials from the SDK's default chain. */
export function createS3Client(s3: S3Settings): S3Client {
  return new S3Client({
    region: s3.region,
    ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
    forcePathStyle: s3.forcePathStyle,
    // Checksums only where S3 demands them: S3-compatible servers do not all take the trailing-checksum
    // encodings the SDK sends by default, and the store checks the sha256 itself.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    // An unreachable bucket must fail a request in seconds (503, readiness), not hang it.
    requestHandler: { connectionTimeout: 3000, requestTimeout: 60_000 },
  });
}

/**
 * Blobs as objects of one bucket: `<prefix>bundles/<sha256>`. An upload streams to a temporary key
 * (`<prefix>uploads/<uuid>`) while it is hashed: one PutObject when its length was declared, else a
 * multipart upload (memory holds a couple of parts whatever its size). Only when it is complete and its
 * sha256 known is it copied to its content address (unless that exists already: the same bytes are stored
 * once), with its Content-Type and immutable caching, and the temporary object is deleted. An upload cut
 * midway is aborted (a PutObject stores nothing, a multipart upload's parts are dropped) and never reaches
 * a key under `bundles/`.
 */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3';

  constructor(
    readonly client: S3Client,
    readonly bucket: string,
    readonly prefix: string,
    private readonly parts = { size: PART_SIZE, inFlight: PARTS_IN_FLIGHT },
  ) {}

  /** The object key of a blob. */
  keyOf(sha256: string): string {
    if (!isSha256Hex(sha256)) throw new Error(`not a lowercase hex sha256: ${JSON.stringify(sha256)}`);
    return `${this.prefix}bundles/${sha256}`;
  }

  async put(source: Readable, options: PutOptions): Promise<StoredBlob> {
    const contentType = options.contentType ?? OCTET_STREAM;
    const hashing = hashingBody(source, options.maxBytes);
    const temporary = `${this.prefix}uploads/${randomUUID()}`;
    const abort = new AbortController();
    // The source failing (too large, cut) ends the request to the store at once.
    hashing.body.once('error', () => abort.abort());
    try {
      if (options.length !== undefined) {
        // A declared length: one streaming PutObject, which S3 stores whole or not at all.
        await this.client.send(
          new PutObjectCommand({
            Bucket: this.bucket,
            Key: temporary,
            Body: hashing.body,
            ContentLength: options.length,
            ContentType: contentType,
          }),
          { abortSignal: abort.signal },
        );
      } else {
        await new Upload({
          client: this.client,
          params: { Bucket: this.bucket, Key: temporary, Body: hashing.body, ContentType: contentType },
          partSize: this.parts.size,
          queueSize: this.parts.inFlight,
          leavePartsOnError: false,
          abortController: abort,
        }).done();
      }
    } catch (err) {
      hashing.release(err);
      // A server that is not atomic may have kept part of a cut PutObject: never leave it readable.
      await this.deleteKey(temporary);
      // The source's own failure (too large, cut) is the answer, whatever the abort that followed said.
      throw hashing.failure() ?? new BlobStoreUnavailableError(err);
    }
    // The store has what it asked for; what the source still sends (more than it declared) is drained
    // and counted, so the size check below sees it, and the source's end is awaited.
    hashing.body.resume();
    let stored: StoredBlob;
    try {
      stored = await hashing.result();
    } catch (err) {
      await this.deleteKey(temporary);
      throw hashing.failure() ?? new BlobSourceError(err);
    }
    if (options.length !== undefined && stored.size !== options.length) {
      await this.deleteKey(temporary);
      throw new BlobSourceError(new Error(`${stored.size} bytes arrived of ${options.length} declared`));
    }
    try {
      if ((await this.size(stored.sha256)) === undefined) {
        await this.client.send(
          new CopyObjectCommand({
            Bucket: this.bucket,
            Key: this.keyOf(stored.sha256),
            CopySource: `${this.bucket}/${encodeURI(temporary)}`,
            MetadataDirective: 'REPLACE',
            ContentType: contentType,
            // Opened straight from the bucket (BUNDLE_BASE_URL), a browser saves the bytes, never shows
            // them; nosniff and the sandbox CSP are the CDN's to add (docs/operations/storage.md).
            ContentDisposition: 'attachment',
            CacheControl: IMMUTABLE,
          }),
        );
      }
    } catch (err) {
      throw err instanceof BlobStoreUnavailableError ? err : new BlobStoreUnavailableError(err);
    } finally {
      // Left behind only when the bucket went away just now: deleteAbandonedUploads sweeps it later.
      await this.deleteKey(temporary);
    }
    return stored;
  }

  private async deleteKey(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })).catch(() => {});
  }

  async has(sha256: string): Promise<boolean> {
    return (await this.size(sha256)) !== undefined;
  }

  async size(sha256: string): Promise<number | undefined> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(sha256) }),
      );
      return head.ContentLength ?? 0;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw new BlobStoreUnavailableError(err);
    }
  }

  createReadStream(sha256: string, range?: ByteRange): Readable {
    const out = new PassThrough();
    const request = new GetObjectCommand({
      Bucket: this.bucket,
      Key: this.keyOf(sha256),
      ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
    });
    this.client.send(request).then(
      (answer) => {
        const body = answer.Body as Readable | undefined;
        if (!body) {
          out.end();
          return;
        }
        // Either side failing or closing early (a client gone) ends both.
        pipeline(body, out, () => {});
      },
      (err) =>
        out.destroy(isNotFound(err) ? new Error(`no blob ${sha256}`) : new BlobStoreUnavailableError(err)),
    );
    return out;
  }

  async delete(sha256: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(sha256) }));
    } catch (err) {
      if (!isNotFound(err)) throw new BlobStoreUnavailableError(err);
    }
  }

  async *list(): AsyncIterable<ListedBlob> {
    const folder = `${this.prefix}bundles/`;
    for await (const object of this.objects(folder)) {
      const sha256 = object.key.slice(folder.length);
      if (isSha256Hex(sha256)) yield { sha256, size: object.size, modifiedAt: object.modifiedAt };
    }
  }

  /** Deletes temporary objects older than `before` (an upload whose copy the bucket's absence cut short). */
  async deleteAbandonedUploads(before: Date): Promise<number> {
    let deleted = 0;
    for await (const object of this.objects(`${this.prefix}uploads/`)) {
      if (object.modifiedAt >= before) continue;
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: object.key }));
      deleted += 1;
    }
    return deleted;
  }

  async ping(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      throw isNotFound(err) ? new Error(`bucket ${this.bucket} does not exist`) : err;
    }
  }

  private async *objects(prefix: string): AsyncIterable<{ key: string; size: number; modifiedAt: Date }> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key === undefined) continue;
        yield { key: object.Key, size: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}
