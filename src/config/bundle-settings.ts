import { Type } from '@sinclair/typebox';
import { Bool, Count, type EnvOf } from './env.js';

/**
 * The bundle storage settings (API.md "Bundle storage", docs/operations/storage.md), parsed from the
 * environment's strings after the schema of config.ts has checked each one alone.
 */

/** The storage variables of the environment schema (config.ts), each checked alone. */
export const BUNDLE_ENV = {
  BUNDLE_MAX_BYTES: Count('104857600'),
  // Unset: 4 × BUNDLE_MAX_BYTES.
  BUNDLE_MAX_UNZIPPED_BYTES: Type.Optional(Type.String({ pattern: '^[0-9]+$' })),
  BLOB_DIR: Type.String({ default: '.local/blobs' }),
  BLOB_STORE: Type.Union([Type.Literal('disk'), Type.Literal('s3')], { default: 'disk' }),
  S3_BUCKET: Type.Optional(Type.String({ pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$' })),
  S3_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://[^/?#\\s]+/?$' })),
  S3_REGION: Type.String({ pattern: '^[a-z0-9-]{1,32}$', default: 'us-east-1' }),
  S3_FORCE_PATH_STYLE: Type.Union([Bool], { default: 'false' }),
  // Empty, or a path ending in '/': keys are `<S3_PREFIX>bundles/<sha256>`.
  S3_PREFIX: Type.String({ pattern: "^([A-Za-z0-9!_.*'()-]+/)*$", maxLength: 512, default: '' }),
  // Read by the AWS SDK itself (its default chain, which also knows profiles and instance roles); listed
  // here so a key without its secret is refused at start-up rather than at the first upload.
  AWS_ACCESS_KEY_ID: Type.Optional(Type.String({ minLength: 1 })),
  AWS_SECRET_ACCESS_KEY: Type.Optional(Type.String({ minLength: 1 })),
  BUNDLE_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://[^?#\\s]+$' })),
  BUNDLE_URL_TTL_SECONDS: Count('3600'),
  BLOB_RETENTION_DAYS: Count('30'),
  BLOB_RETENTION_DRY_RUN: Type.Union([Bool], { default: 'false' }),
};

/** The variables read here, as strings (defaults applied, patterns checked). */
export type BundleEnv = EnvOf<typeof BUNDLE_ENV>;

/** Where bundle bytes live and the URLs devices fetch them from (API.md "Bundle storage"). */
export interface BundleSettings {
  maxBytes: number;
  /** A zip bundle's files may inflate to this many bytes together: refused at upload, never read past by workers. */
  maxUnzippedBytes: number;
  /** The disk store's folder (BLOB_STORE=disk). */
  blobDir: string;
  store: 'disk' | 's3';
  /** With BLOB_STORE=s3; credentials come from the AWS SDK's default chain (AWS_ACCESS_KEY_ID, ...). */
  s3: {
    bucket: string;
    endpoint: string | null;
    region: string;
    forcePathStyle: boolean;
    prefix: string;
  } | null;
  /** BUNDLE_BASE_URL without a trailing slash: device URLs are `<baseUrl>/<key>`; null when unset. */
  baseUrl: string | null;
  /** Lifetime of a presigned download URL; one is never handed out with less than half of it left. */
  urlTtlSeconds: number;
  /** Blobs no release or Expo asset has referenced for this long are deleted by the upkeep worker. */
  retentionDays: number;
  /** The sweep only logs what it would delete. */
  retentionDryRun: boolean;
}

/** A presigned S3 URL lives at most 7 days (SigV4); under a minute would be renewed constantly. */
const URL_TTL_RANGE = { min: 60, max: 604_800 };
/** One PutObject stores at most 5 GiB: a bigger upload could never reach its content address. */
const S3_MAX_PUT_BYTES = 5 * 1024 ** 3;

/** The bundle storage settings, checked together: each mistake named with its variable (start-up stops). */
export function parseBundleSettings(e: BundleEnv): BundleSettings | string[] {
  const problems: string[] = [];
  const int = (v: string) => Number.parseInt(v, 10);
  const s3 = e.BLOB_STORE === 's3';
  if (s3 && !e.S3_BUCKET) problems.push('  S3_BUCKET: required when BLOB_STORE=s3');
  if (Boolean(e.AWS_ACCESS_KEY_ID) !== Boolean(e.AWS_SECRET_ACCESS_KEY))
    problems.push('  AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY: set both or neither');
  if (!s3 && e.BUNDLE_BASE_URL)
    problems.push('  BUNDLE_BASE_URL: names keys of a bucket, so it needs BLOB_STORE=s3');
  const ttl = int(e.BUNDLE_URL_TTL_SECONDS);
  if (ttl < URL_TTL_RANGE.min || ttl > URL_TTL_RANGE.max)
    problems.push(
      `  BUNDLE_URL_TTL_SECONDS: must be ${URL_TTL_RANGE.min}-${URL_TTL_RANGE.max} (a presigned URL lives at most 7 days; got ${ttl})`,
    );
  const maxBytes = int(e.BUNDLE_MAX_BYTES);
  if (s3 && maxBytes > S3_MAX_PUT_BYTES)
    problems.push(`  BUNDLE_MAX_BYTES: at most ${S3_MAX_PUT_BYTES} with BLOB_STORE=s3 (got ${maxBytes})`);
  const maxUnzippedBytes =
    e.BUNDLE_MAX_UNZIPPED_BYTES === undefined ? 4 * maxBytes : int(e.BUNDLE_MAX_UNZIPPED_BYTES);
  if (!Number.isSafeInteger(maxUnzippedBytes) || maxUnzippedBytes < 1)
    problems.push(
      `  BUNDLE_MAX_UNZIPPED_BYTES: a whole number of bytes, at least 1 (got ${e.BUNDLE_MAX_UNZIPPED_BYTES})`,
    );
  if (problems.length > 0) return problems;
  return {
    maxBytes,
    maxUnzippedBytes,
    blobDir: e.BLOB_DIR,
    store: e.BLOB_STORE,
    s3: s3
      ? {
          bucket: e.S3_BUCKET!,
          endpoint: e.S3_ENDPOINT ? e.S3_ENDPOINT.replace(/\/+$/, '') : null,
          region: e.S3_REGION,
          forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
          prefix: e.S3_PREFIX,
        }
      : null,
    baseUrl: e.BUNDLE_BASE_URL ? e.BUNDLE_BASE_URL.replace(/\/+$/, '') : null,
    urlTtlSeconds: ttl,
    retentionDays: Math.max(1, int(e.BLOB_RETENTION_DAYS)),
    retentionDryRun: e.BLOB_RETENTION_DRY_RUN === 'true',
  };
}
