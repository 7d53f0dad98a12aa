import { migrateBlobs } from './bundles/blob-migration.js';
import { LocalDiskBlobStore } from './bundles/local-blob-store.js';
import { createS3Client, S3BlobStore } from './bundles/s3-blob-store.js';
import { loadBundleSettings } from './config/config.js';
import { ConfigError } from './config/env.js';

/**
 * `npm run blobs:migrate`: copies the disk store (BLOB_DIR) into the bucket of BLOB_STORE=s3 (S3_BUCKET,
 * S3_ENDPOINT, ...), checking every sha256. Safe to run again: what the bucket holds is skipped. Exits 1
 * when a file did not match its sha256 (it is named, and left where it is).
 */
async function main(): Promise<number> {
  const settings = loadBundleSettings();
  if (settings.store !== 's3' || !settings.s3)
    throw new ConfigError('blobs:migrate copies BLOB_DIR into a bucket: set BLOB_STORE=s3 and S3_BUCKET.');
  const from = new LocalDiskBlobStore(settings.blobDir);
  const client = createS3Client(settings.s3);
  const to = new S3BlobStore(client, settings.s3.bucket, settings.s3.prefix);
  try {
    await to.ping();
    console.error(`blobs:migrate: ${from.root} -> s3://${settings.s3.bucket}/${settings.s3.prefix}bundles/`);
    let seen = 0;
    const report = await migrateBlobs(from, to, {
      maxBytes: settings.maxBytes,
      onBlob: (sha256, outcome) => {
        seen += 1;
        if (outcome === 'corrupt' || outcome === 'conflicting') console.error(`  ${outcome}: ${sha256}`);
        else if (seen % 100 === 0) console.error(`  ${seen} blobs looked at`);
      },
    });
    console.log(
      JSON.stringify({
        copied: report.copied,
        present: report.present,
        corrupt: report.corrupt,
        conflicting: report.conflicting,
      }),
    );
    return report.corrupt.length + report.conflicting.length > 0 ? 1 : 0;
  } finally {
    client.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  },
);
