import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import type { Config } from '../../src/config/config.js';
import { requireEnv } from './test-databases.js';

/**
 * The blob store the integration tests run on: `disk` (the shipped default) unless OTA_TEST_BLOB_STORE=s3,
 * which the `integration-s3` project of vitest.config.ts sets to run the storage, release, update-check,
 * CodePush and Expo files a second time on the S3 server `npm test` starts (scripts/services/s3.mjs).
 */
export function testBlobStore(): 'disk' | 's3' {
  return process.env.OTA_TEST_BLOB_STORE === 's3' ? 's3' : 'disk';
}

/** A client of the test S3 server, with the key pair npm test put in the environment. */
export function testS3Client(): S3Client {
  return new S3Client({
    endpoint: requireEnv('S3_ENDPOINT'),
    region: process.env.S3_REGION ?? 'us-east-1',
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** The settings of a store on the test S3 server: one bucket per test file. */
export function s3Env(bucket: string): Record<string, string> {
  return {
    BLOB_STORE: 's3',
    S3_BUCKET: bucket,
    S3_ENDPOINT: requireEnv('S3_ENDPOINT'),
    S3_REGION: process.env.S3_REGION ?? 'us-east-1',
    S3_FORCE_PATH_STYLE: 'true',
    // For child processes: the SDK's default chain reads the key pair from the environment.
    ...(process.env.AWS_ACCESS_KEY_ID ? { AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID } : {}),
    ...(process.env.AWS_SECRET_ACCESS_KEY
      ? { AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY }
      : {}),
  };
}

/** Creates a bucket of the file's own; answers how to remove it with everything in it. */
export async function createTestBucket(name: string): Promise<() => Promise<void>> {
  const client = testS3Client();
  await client.send(new CreateBucketCommand({ Bucket: name }));
  return async () => {
    try {
      await emptyBucket(client, name);
      await client.send(new DeleteBucketCommand({ Bucket: name })).catch(() => {});
    } finally {
      client.destroy();
    }
  };
}

async function emptyBucket(client: S3Client, bucket: string): Promise<void> {
  for (;;) {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
    const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
    if (keys.length === 0) return;
    await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys } }));
  }
}

/** Every key of a bucket under a prefix. */
export async function bucketKeys(bucket: string, prefix = ''): Promise<string[]> {
  const client = testS3Client();
  try {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  } finally {
    client.destroy();
  }
}

/** What unfinished uploads have written where a reader could see it: `.tmp` files, or `uploads/` objects. */
export async function temporaryUploads(config: Config): Promise<string[]> {
  const { s3, blobDir } = config.bundles;
  if (config.bundles.store === 's3' && s3) return bucketKeys(s3.bucket, `${s3.prefix}uploads/`);
  return readdir(join(blobDir, '.tmp')).catch(() => []);
}
