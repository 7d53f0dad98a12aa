import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { PassThrough, pipeline, type Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { BundleSettings } from '../config/bundle-settings.js';
import {
  type BlobStore,
  BlobStoreUnavailableError,
  type ByteRange,
  isSha256Hex,
  type ListedBlob,
  type PutOptions,
  type StoredBlob,
} from './blob-store.js';
import { jobFolder } from './job-folders.js';
import { spoolUpload, whileHoldingErrors } from './spooled-upload.js';

/** Objects never change once written: a CDN or browser may keep them for a year without asking again. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
const OCTET_STREAM = 'application/octet-stream';

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
 * Blobs as objects of one bucket: `<prefix>bundles/<sha256>`. An upload is spooled to a local file while it
 * is hashed (memory holds a chunk at a time whatever its size); once complete and its sha256 known, it is
 * written to its content address by one PutObject, with its Content-Type and immutable caching, unless
 * that key exists already (the same bytes are stored once). So a key under `bundles/` only ever receives
 * the bytes it names, the bucket sees each upload's bytes once (no temporary object, no copy), and an
 * upload cut midway never reaches the bucket. Versions before this wrote a temporary key under
 * `<prefix>uploads/` and copied it: deleteAbandonedUploads still sweeps what they left.
 */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3';

  constructor(
    readonly client: S3Client,
    readonly bucket: string,
    readonly prefix: string,
  ) {}

  /** The object key of a blob. */
  keyOf(sha256: string): string {
    if (!isSha256Hex(sha256)) throw new Error(`not a lowercase hex sha256: ${JSON.stringify(sha256)}`);
    return `${this.prefix}bundles/${sha256}`;
  }

  async put(source: Readable, options: PutOptions): Promise<StoredBlob> {
    const dir = await whileHoldingErrors(source, () => jobFolder('upload'));
    try {
      const spooled = await spoolUpload(source, dir, options);
      await this.putFile(spooled.path, spooled, options);
      return { sha256: spooled.sha256, size: spooled.size };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async putFile(path: string, blob: StoredBlob, options: { contentType?: string } = {}): Promise<void> {
    try {
      if ((await this.size(blob.sha256)) !== undefined) return;
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: this.keyOf(blob.sha256),
          Body: createReadStream(path),
          ContentLength: blob.size,
          ContentType: options.contentType ?? OCTET_STREAM,
          // Opened straight from the bucket (BUNDLE_BASE_URL), a browser saves the bytes, never shows
          // them; nosniff and the sandbox CSP are the CDN's to add (docs/operations/storage.md).
          ContentDisposition: 'attachment',
          CacheControl: IMMUTABLE,
        }),
      );
    } catch (err) {
      throw err instanceof BlobStoreUnavailableError ? err : new BlobStoreUnavailableError(err);
    }
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

  /** Deletes temporary objects older than `before`: what an upload of an earlier version left when cut. */
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
