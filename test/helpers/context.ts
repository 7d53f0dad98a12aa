import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@clickhouse/client';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { freePort } from '../../bench/free-port.mjs';
import { buildApp } from '../../src/api/app.js';
import { type Config, loadConfig } from '../../src/config/config.js';
import { createContainer } from '../../src/container/container.js';
import type { Container } from '../../src/container/container.types.js';
import type { App } from '../../src/http/types.js';
import { migrateClickHouse } from '../../src/migrations/clickhouse-migrator.js';
import { ensureClickHouseDatabase } from '../../src/platform/clickhouse.js';
import type { Logger } from '../../src/platform/logger.js';
import { createPool, type Db } from '../../src/platform/postgres.js';
import { keyspaceNodes } from '../../src/platform/redis.js';
import { createTestBucket, s3Env, testBlobStore } from './test-buckets.js';
import { createTestDatabase, dropTestDatabase, requireEnv } from './test-databases.js';

/** A port nothing listens on right now, below the ephemeral range (bench/free-port.mjs says why). */
export { freePort };

export const TEST_TOKEN_SECRET = 'test-secret-test-secret-test-secret-0123456789';
export const TEST_WEBHOOK_KEY = '11'.repeat(32);

export interface TestContext {
  id: string;
  config: Config;
  deps: Container;
  /**
   * The file's database as the schema owner (what migrations run as), for what the service itself may
   * not do: tampering with the audit log behind its back, creating tables. `deps.db` is the service role.
   */
  ownerDb: Db;
  app: App;
  /** The environment a child process (API, worker, CLI) needs to use this file's databases and keys. */
  env: Record<string, string>;
  /** Base URL of the listening server (with `listen: true`). */
  url?: string;
  close(): Promise<void>;
}

export interface TestContextOptions {
  env?: Record<string, string>;
  /** Skip building the Fastify app (worker-only tests). */
  withoutApp?: boolean;
  /**
   * Listen on a free 127.0.0.1 port, with PUBLIC_URL pointing at it, so absolute URLs the API hands out
   * (bundle downloads) reach this server. The address is in `url`.
   */
  listen?: boolean;
  /** The container's logger (a test reading what the service logs: captured-log.ts); silent otherwise. */
  logger?: Logger;
}

/**
 * What every test context sets: only where the services are, names (the file's database, key prefix and
 * blob folder), secrets and the log level. Everything else runs on the shipped defaults, exactly as users
 * run it; a test about another setting passes it in `env` (test/unit/project/test-context-defaults.test.ts keeps
 * this list to that).
 */
export function baseTestEnv(world: {
  id: string;
  database: { service: string; owner: string };
  clickhouseUrl: string;
  chDatabase: string;
  blobDir: string;
}): Record<string, string> {
  return {
    DATABASE_URL: world.database.service,
    DATABASE_MIGRATION_URL: world.database.owner,
    REDIS_URL: requireEnv('REDIS_URL'),
    REDIS_KEY_PREFIX: `ota_test_${world.id}`,
    CLICKHOUSE_URL: world.clickhouseUrl,
    CLICKHOUSE_DATABASE: world.chDatabase,
    AUTH_TOKEN_SECRET: TEST_TOKEN_SECRET,
    WEBHOOK_SECRET_KEY: TEST_WEBHOOK_KEY,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    BLOB_DIR: world.blobDir,
  };
}

/**
 * One isolated world per test file: its own Postgres database (copied from the migrated template), its
 * own ClickHouse database, its own Redis key prefix and blob folder (and bucket, on S3). close() removes
 * all of them.
 */
export async function createTestContext(options: TestContextOptions = {}): Promise<TestContext> {
  const id = randomBytes(5).toString('hex');
  const database = await createTestDatabase(id);
  // A fault test may bring a ClickHouse of its own.
  const clickhouseUrl = options.env?.CLICKHOUSE_URL ?? requireEnv('CLICKHOUSE_URL');
  const chDatabase = `ota_test_${id}`;
  // The cluster tests (test/cluster) bring a ClickHouse cluster: the database on every server of it.
  const chCluster = options.env?.CLICKHOUSE_CLUSTER;
  await ensureClickHouseDatabase(clickhouseUrl, chDatabase, chCluster);
  const blobDir = await mkdtemp(join(tmpdir(), `ota-blobs-${id}-`));
  // On S3 (OTA_TEST_BLOB_STORE=s3, or a file asking for it), a bucket of the file's own unless it names one.
  const onS3 = (options.env?.BLOB_STORE ?? testBlobStore()) === 's3';
  const bucket = onS3 && !options.env?.S3_BUCKET ? `ota-test-${id}` : undefined;
  const dropBucket = bucket ? await createTestBucket(bucket) : undefined;
  const port = options.listen ? await freePort() : undefined;
  const env: Record<string, string> = {
    ...baseTestEnv({
      id,
      database,
      clickhouseUrl,
      chDatabase,
      blobDir,
    }),
    ...(port ? { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` } : {}),
    ...(onS3 ? s3Env(bucket ?? options.env!.S3_BUCKET!) : {}),
    ...options.env,
  };
  const config = loadConfig(env);
  const deps = createContainer(config, { name: 'test', poolSize: 5, logger: options.logger });
  const ownerDb = createPool(database.owner, 2);
  await migrateClickHouse(
    deps.clickhouse,
    undefined,
    chCluster ? { cluster: chCluster, database: chDatabase } : undefined,
  );
  const app = options.withoutApp ? (undefined as unknown as App) : await buildApp(deps);
  if (app) await app.ready();
  const url = port && app ? await app.listen({ host: '127.0.0.1', port }) : undefined;

  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    if (app) await app.close();
    await cleanRedis(deps, config.redisKeyPrefix);
    await deps.close();
    await ownerDb.end();
    await dropTestDatabase(id);
    const admin = createClient({ url: clickhouseUrl });
    const on = chCluster ? ` ON CLUSTER ${chCluster}` : '';
    await admin.command({ query: `DROP DATABASE IF EXISTS ${chDatabase}${on}` }).finally(() => admin.close());
    await rm(blobDir, { recursive: true, force: true });
    await dropBucket?.();
  };
  return { id, config, deps, ownerDb, app, env, url, close };
}

/**
 * The file's test context, made before its tests and removed after them (with every database, key and
 * blob it made). `const ctx = fileContext();` at the top of a test file stands for the beforeAll/afterAll
 * pair each file would otherwise copy. The object reads the context made in beforeAll, so use it in hooks
 * and tests (a hook registered after this call runs after the context exists; after-hooks run in reverse
 * order, so a file's own clean-up runs before the context closes).
 */
export function fileContext(options: TestContextOptions = {}, timeout?: number): TestContext {
  let made: TestContext | undefined;
  beforeAll(async () => {
    made = await createTestContext(options);
  }, timeout);
  afterAll(async () => {
    await made?.close();
  });
  const current = (): TestContext => {
    if (!made) throw new Error('the file context exists from its beforeAll on: use it in hooks and tests');
    return made;
  };
  return {
    get id() {
      return current().id;
    },
    get config() {
      return current().config;
    },
    get deps() {
      return current().deps;
    },
    get ownerDb() {
      return current().ownerDb;
    },
    get app() {
      return current().app;
    },
    get env() {
      return current().env;
    },
    get url() {
      return current().url;
    },
    close: () => current().close(),
  };
}

/** Removes the file's keys from every node (each master of a Redis Cluster holds some of them). */
async function cleanRedis(deps: Container, prefix: string): Promise<void> {
  for (const node of keyspaceNodes(deps.redis)) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      // One UNLINK per key: keys of different hash tags may not share a command on a cluster node.
      if (keys.length > 0) await keys.reduce((p, key) => p.unlink(key), node.pipeline()).exec();
    } while (cursor !== '0');
  }
}

export interface SignedIn {
  token: string;
  workspaceId: string;
  userId: string;
  email: string;
  password: string;
  headers: { authorization: string };
}

let counter = 0;

/** Signs up a new account (first sign-in) and returns its token and personal workspace. */
export async function signUp(
  app: App,
  email?: string,
  password = 'correct horse battery',
): Promise<SignedIn> {
  counter += 1;
  const address = email ?? `user${counter}-${randomBytes(3).toString('hex')}@example.com`;
  // Each person signs up from an address of their own (198.18.0.0/15, set aside for tests), as people
  // do: the per-address sign-in limit then applies to each as it does in production.
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/signin',
    payload: { email: address, password },
    remoteAddress: `198.18.${(counter >> 8) & 0xff}.${counter & 0xff}`,
  });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const body = res.json() as { token: string; workspace_id: string; user: { id: string; email: string } };
  return {
    token: body.token,
    workspaceId: body.workspace_id,
    userId: body.user.id,
    email: body.user.email,
    password,
    headers: { authorization: `Bearer ${body.token}` },
  };
}

/** The subject the service puts in a user's identity tokens (for tests that make tokens themselves). */
export async function tokenSubjectOf(ctx: TestContext, userId: string): Promise<string> {
  const { rows } = await ctx.deps.db.query('SELECT token_subject FROM users WHERE id = $1', [userId]);
  return rows[0].token_subject;
}

/** Asserts a problem+json answer and returns its body. */
export function expectProblem(
  res: LightMyRequestResponse,
  status: number,
  code?: string,
): Record<string, unknown> {
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body}`);
  const type = String(res.headers['content-type'] ?? '');
  if (!type.startsWith('application/problem+json'))
    throw new Error(`expected problem+json, got ${type}: ${res.body}`);
  const body = res.json() as Record<string, unknown>;
  if (body.status !== status || typeof body.code !== 'string' || typeof body.detail !== 'string') {
    throw new Error(`malformed problem body: ${res.body}`);
  }
  if (code !== undefined && body.code !== code)
    throw new Error(`expected code ${code}, got ${String(body.code)}`);
  return body;
}
