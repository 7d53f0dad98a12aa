// Where this checkout keeps its services, and the ports they use (one place, so that bootstrap and
// stop-services agree).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const LOCAL_DIR = path.join(PROJECT_ROOT, '.local');
export const REDIS_PORT = 6390;
export const CLICKHOUSE_HTTP_PORT = 18123;
export const CLICKHOUSE_TCP_PORT = 19000;
export const CLICKHOUSE_INTERSERVER_PORT = 19009;
export const POSTGRES_PORT = 5432;
export const REDIS_DIR = path.join(LOCAL_DIR, 'redis');
export const REDIS_PIDFILE = path.join(REDIS_DIR, 'redis.pid');
export const CLICKHOUSE_DIR = path.join(LOCAL_DIR, 'clickhouse');
export const CLICKHOUSE_PIDFILE = path.join(CLICKHOUSE_DIR, 'clickhouse.pid');
/** The local S3 server (s3rver from npm) for tests and `BLOB_STORE=s3` local runs. */
export const S3_PORT = 14568;
export const S3_DIR = path.join(LOCAL_DIR, 's3');
export const S3_PIDFILE = path.join(S3_DIR, 's3rver.pid');

/** The Postgres database, and the ClickHouse one unless CLICKHOUSE_DATABASE names another. */
export const DB_NAME = 'ota';
