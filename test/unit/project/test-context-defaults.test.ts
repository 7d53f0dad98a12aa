import { describe, expect, it } from 'vitest';
import { baseTestEnv } from '../../helpers/context.js';

/**
 * The tests run what users run: a test context differs from the shipped defaults only in where the
 * services are, in names, in secrets and in the log level. A setting a test is about is passed by that
 * test (createTestContext's `env`). A default that refuses what the specification serves once hid
 * exactly in this gap (every context raised the per-address new-device limit), so it stays closed.
 */
const ALLOWED = new Set([
  // where the services are
  'DATABASE_URL',
  'DATABASE_MIGRATION_URL',
  'REDIS_URL',
  'CLICKHOUSE_URL',
  // names of the file's own world
  'REDIS_KEY_PREFIX',
  'CLICKHOUSE_DATABASE',
  'BLOB_DIR',
  // secrets
  'AUTH_TOKEN_SECRET',
  'WEBHOOK_SECRET_KEY',
  // output only
  'LOG_LEVEL',
]);

describe('test contexts', () => {
  it('set nothing but locations, names, secrets and the log level: every other setting is the default', () => {
    process.env.REDIS_URL ??= 'redis://127.0.0.1:6379';
    const env = baseTestEnv({
      id: 'x',
      database: { service: 'postgres://a/b', owner: 'postgres://a/b' },
      clickhouseUrl: 'http://127.0.0.1:8123',
      chDatabase: 'ota_test_x',
      blobDir: '/tmp/x',
    });
    expect(Object.keys(env).filter((name) => !ALLOWED.has(name))).toEqual([]);
  });
});
