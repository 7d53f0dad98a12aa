import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeClickhouse, stopOrphanClickhouse } from '../../../scripts/services/clickhouse.mjs';
import { BootstrapError } from '../../../scripts/services/log.mjs';
import {
  AOF_REWRITE_MIN_BYTES,
  fixRedisSettings,
  probeRedis,
  shutdownRedis,
} from '../../../scripts/services/redis.mjs';
import { createTestContext, freePort, type TestContext } from '../../helpers/context.js';
import { PrivateClickHouse } from '../support/private-clickhouse.js';
import { PrivateRedis } from '../support/private-redis.js';

/** The bootstrap's probes through the client libraries, against servers of this test's own. */
let redis: PrivateRedis;
let clickhouse: PrivateClickHouse;
let ctx: TestContext;

beforeAll(async () => {
  [redis, clickhouse, ctx] = await Promise.all([
    PrivateRedis.start(),
    PrivateClickHouse.start(),
    createTestContext({ withoutApp: true }),
  ]);
});
afterAll(async () => {
  await Promise.allSettled([redis?.close(), clickhouse?.close(), ctx?.close()]);
});

describe('bootstrap probes', () => {
  it('Redis: reads its settings, turns AOF (synced before each answer, rewritten from 512 MB) and noeviction back on, and shuts it down', async () => {
    expect(await probeRedis(redis.port)).toEqual({
      dir: redis.dir,
      appendonly: 'yes',
      fsync: 'always',
      policy: 'noeviction',
      rewriteMin: String(AOF_REWRITE_MIN_BYTES),
    });
    const admin = new Redis({ port: redis.port, host: '127.0.0.1', lazyConnect: true });
    await admin.connect();
    await admin.config('SET', 'appendonly', 'no');
    await admin.config('SET', 'appendfsync', 'everysec');
    await admin.config('SET', 'maxmemory-policy', 'allkeys-lru');
    await admin.config('SET', 'auto-aof-rewrite-min-size', '64mb');
    admin.disconnect();
    const drifted = await probeRedis(redis.port);
    expect(drifted).toMatchObject({
      appendonly: 'no',
      fsync: 'everysec',
      policy: 'allkeys-lru',
      rewriteMin: String(64 * 1024 * 1024),
    });
    expect(
      await fixRedisSettings(
        drifted as { appendonly: string; fsync: string; policy: string; rewriteMin: string },
        redis.port,
      ),
    ).toEqual(['appendonly', 'appendfsync', 'maxmemory-policy', 'auto-aof-rewrite-min-size']);
    expect(await probeRedis(redis.port)).toMatchObject({
      appendonly: 'yes',
      fsync: 'always',
      policy: 'noeviction',
      rewriteMin: String(AOF_REWRITE_MIN_BYTES),
    });

    expect(await shutdownRedis(redis.port)).toBe(true);
    expect(await probeRedis(redis.port)).toBe('absent');
    await redis.restart();
  });

  it('Redis: a port held by something that is not Redis is named as such', async () => {
    const err = await probeRedis(clickhouse.httpPort).catch((e) => e);
    expect(err).toBeInstanceOf(BootstrapError);
    expect(err.message).toMatch(/does not answer as Redis/);
    expect(await probeRedis(await freePort())).toBe('absent');
  });

  it('ClickHouse: finds its data folder, and stops an instance it has no pidfile of', async () => {
    const state = await probeClickhouse(clickhouse.httpPort);
    expect(state).not.toBe('absent');
    expect((state as { dataPath: string }).dataPath.startsWith(clickhouse.dir)).toBe(true);
    expect(await stopOrphanClickhouse(clickhouse.httpPort, join(clickhouse.dir, 'no.pid'))).toBe(true);
    expect(await probeClickhouse(clickhouse.httpPort)).toBe('absent');
    await clickhouse.restart();
  });

  it('Postgres: a given DATABASE_URL is waited for by logging in, and an unknown database fails at once', async () => {
    const url = pathToFileURL(join(process.cwd(), 'scripts/services/postgres.mjs')).href;
    const { waitPostgresUrl } = (await import(url)) as { waitPostgresUrl(url: string): Promise<void> };
    await waitPostgresUrl(ctx.config.databaseUrl);
    const missing = new URL(ctx.config.databaseUrl);
    missing.pathname = '/ota_no_such_database';
    const err = await waitPostgresUrl(missing.href).catch((e) => e);
    expect(err).toBeInstanceOf(BootstrapError);
    // The server's answer itself, not a wait that ran into its deadline: it is final, so not retried.
    expect(err.message).toMatch(/database "ota_no_such_database" does not exist/);
    expect(err.message).not.toMatch(/not reachable after/);
  });
});
