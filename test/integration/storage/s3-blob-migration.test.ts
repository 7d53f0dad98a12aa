import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateBlobs } from '../../../src/bundles/blob-migration.js';
import { LocalDiskBlobStore } from '../../../src/bundles/local-blob-store.js';
import { createS3Client, S3BlobStore } from '../../../src/bundles/s3-blob-store.js';
import { createTestBucket } from '../../helpers/test-buckets.js';
import { requireEnv } from '../../helpers/test-databases.js';

/** `npm run blobs:migrate`'s copy: a disk folder into a bucket of its own on the test S3 server. */
let dir: string;
let dropBucket: () => Promise<void>;
let disk: LocalDiskBlobStore;
let bucket: S3BlobStore;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ota-migrate-'));
  const name = `ota-migrate-${randomBytes(4).toString('hex')}`;
  dropBucket = await createTestBucket(name);
  disk = new LocalDiskBlobStore(dir);
  const settings = {
    bucket: name,
    endpoint: requireEnv('S3_ENDPOINT'),
    region: 'us-east-1',
    forcePathStyle: true,
    prefix: 'm/',
  };
  bucket = new S3BlobStore(createS3Client(settings), name, settings.prefix);
});
afterAll(async () => {
  bucket?.client.destroy();
  await dropBucket?.();
  await rm(dir, { recursive: true, force: true });
});

describe('blobs:migrate', () => {
  it('copies every blob whose bytes match its sha256, skips a corrupt one, and can run again', async () => {
    const blobs = [randomBytes(10), randomBytes(300_000), randomBytes(6 * 1024 * 1024)];
    const shas: string[] = [];
    for (const bytes of blobs) shas.push((await disk.put(Readable.from([bytes]), { maxBytes: 1e9 })).sha256);
    // A file whose bytes are not what its name says (a disk fault).
    const liar = createHash('sha256').update('what it should be').digest('hex');
    await mkdir(dirname(disk.pathOf(liar)), { recursive: true });
    await writeFile(disk.pathOf(liar), 'something else');
    // Uploaded to the bucket already (after the switch): skipped.
    await bucket.put(Readable.from([blobs[0]!]), { maxBytes: 1e9 });

    const first = await migrateBlobs(disk, bucket, { maxBytes: 1e9 });
    expect(first).toEqual({ copied: 2, present: 1, corrupt: [liar], conflicting: [] });
    for (const [i, sha] of shas.entries()) {
      const chunks: Buffer[] = [];
      for await (const c of bucket.createReadStream(sha)) chunks.push(c as Buffer);
      expect(Buffer.concat(chunks).equals(blobs[i]!)).toBe(true);
    }
    expect(await bucket.has(liar)).toBe(false);

    const again = await migrateBlobs(disk, bucket, { maxBytes: 1e9 });
    expect(again).toEqual({ copied: 0, present: 3, corrupt: [liar], conflicting: [] });
  });
});
