import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';
import { ConfigError } from '../../../src/config/env.js';

const VALID = {
  DATABASE_URL: 'postgres://u:p@localhost:5432/db',
  REDIS_URL: 'redis://localhost:6379',
  CLICKHOUSE_URL: 'http://localhost:8123',
  AUTH_TOKEN_SECRET: 's'.repeat(32),
  WEBHOOK_SECRET_KEY: 'ab'.repeat(32),
};

function refusal(env: Record<string, string>): string {
  try {
    loadConfig({ ...VALID, ...env });
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('bundle storage settings (API.md "Bundle storage")', () => {
  it('defaults to the disk store, API download URLs, one-hour presigned URLs and 30 days of retention', () => {
    const { bundles } = loadConfig(VALID);
    expect(bundles).toMatchObject({
      store: 'disk',
      s3: null,
      baseUrl: null,
      urlTtlSeconds: 3600,
      retentionDays: 30,
      retentionDryRun: false,
    });
  });

  it('reads the S3 settings', () => {
    const { bundles } = loadConfig({
      ...VALID,
      BLOB_STORE: 's3',
      S3_BUCKET: 'ota-bundles',
      S3_ENDPOINT: 'http://127.0.0.1:9000/',
      S3_FORCE_PATH_STYLE: 'true',
      S3_PREFIX: 'prod/ota/',
      BUNDLE_BASE_URL: 'https://cdn.example.com/b/',
      BUNDLE_URL_TTL_SECONDS: '600',
    });
    expect(bundles.s3).toEqual({
      bucket: 'ota-bundles',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      forcePathStyle: true,
      prefix: 'prod/ota/',
    });
    expect(bundles.baseUrl).toBe('https://cdn.example.com/b');
    expect(bundles.urlTtlSeconds).toBe(600);
  });

  it('stops start-up on each bad value, naming the variable', () => {
    expect(refusal({ BLOB_STORE: 's3' })).toContain('S3_BUCKET: required when BLOB_STORE=s3');
    expect(refusal({ BLOB_STORE: 'azure' })).toContain('BLOB_STORE');
    expect(refusal({ BLOB_STORE: 's3', S3_BUCKET: 'Bad_Bucket' })).toContain('S3_BUCKET');
    expect(refusal({ BLOB_STORE: 's3', S3_BUCKET: 'b-1', S3_ENDPOINT: 'minio:9000' })).toContain(
      'S3_ENDPOINT',
    );
    expect(refusal({ BLOB_STORE: 's3', S3_BUCKET: 'b-1', S3_PREFIX: 'prod' })).toContain('S3_PREFIX');
    expect(refusal({ BLOB_STORE: 's3', S3_BUCKET: 'b-1', S3_PREFIX: '/prod/' })).toContain('S3_PREFIX');
    expect(refusal({ BLOB_STORE: 's3', S3_BUCKET: 'b-1', S3_FORCE_PATH_STYLE: 'yes' })).toContain(
      'S3_FORCE_PATH_STYLE',
    );
    expect(refusal({ BUNDLE_BASE_URL: 'https://cdn.example.com' })).toContain('needs BLOB_STORE=s3');
    expect(refusal({ BLOB_STORE: 's3', S3_BUCKET: 'b-1', BUNDLE_URL_TTL_SECONDS: '30' })).toContain(
      'BUNDLE_URL_TTL_SECONDS',
    );
    expect(refusal({ BLOB_STORE: 's3', S3_BUCKET: 'b-1', BUNDLE_URL_TTL_SECONDS: '700000' })).toContain(
      'BUNDLE_URL_TTL_SECONDS',
    );
    expect(refusal({ BLOB_RETENTION_DRY_RUN: 'maybe' })).toContain('BLOB_RETENTION_DRY_RUN');
    expect(refusal({ AWS_ACCESS_KEY_ID: 'AKID' })).toContain('set both or neither');
  });
});
