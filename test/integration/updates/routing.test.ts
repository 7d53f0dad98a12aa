import { afterAll, describe, expect, it, vi } from 'vitest';
import { invalidationChannel, publishInvalidation } from '../../../src/platform/invalidation.js';
import { createLogger } from '../../../src/platform/logger.js';
import { createRedis, type Redis } from '../../../src/platform/redis.js';
import { RoutingCache } from '../../../src/routing/routing.cache.js';
import { RoutingInvalidationListener } from '../../../src/routing/routing.listener.js';
import { PostgresRoutingStore } from '../../../src/routing/routing.postgres-store.js';
import { createRoutingSource } from '../../../src/routing/routing.source.js';
import { fileContext, type TestContext } from '../../helpers/context.js';
import { eventually, offered, rollBack, seedApp, seedRelease, seedWorkspace } from './seed.js';

const ctx = fileContext({ env: { PUBLIC_URL: 'https://cdn.example.com/ota/' } });

const url = (sha: string) => `https://x/${sha}`;
/** The routing source on the test database's Postgres store, as the container builds it. */
const loader = (db: TestContext['deps']['db'], bundleUrl: typeof url) =>
  createRoutingSource({ routing: new PostgresRoutingStore(db) }, { bundleUrl });

describe('routing store', () => {
  it('loads workspace, plan and the active releases per channel, newest first', async () => {
    const workspaceId = await seedWorkspace(ctx, 'pro');
    const appId = await seedApp(ctx, workspaceId);
    const old = await seedRelease(ctx, appId);
    const full = await seedRelease(ctx, appId, { notes: 'n', mandatory: true });
    const fp = await seedRelease(ctx, appId, { fingerprint: 'shell-1' });
    const staged = await seedRelease(ctx, appId, { rolloutPct: 12.5 });
    const gone = await seedRelease(ctx, appId);
    await rollBack(ctx, gone);
    const beta = await seedRelease(ctx, appId, { channel: 'beta', rolloutPct: 0 });

    const route = await loader(ctx.deps.db, url).load(appId);
    expect(route?.workspaceId).toBe(workspaceId);
    expect(route?.plan).toBe('pro');
    // `old` is unreachable behind `full` (100 %, any fingerprint) and is not kept.
    expect(route?.channels.get('production')?.map((r) => r.id)).toEqual([staged.id, fp.id, full.id]);
    expect(route?.channels.get('beta')?.map((r) => r.id)).toEqual([beta.id]);
    expect(route?.channels.get('production')?.[0]).toMatchObject({ rolloutPct: 12.5, fingerprint: null });
    expect(route?.channels.get('production')?.[2]).toEqual({
      id: full.id,
      version: full.version,
      rolloutPct: 100,
      fingerprint: null,
      binaryRange: null,
      mandatory: true,
      paused: false,
      notes: 'n',
      sha256: full.sha256,
      size: full.size,
      url: url(full.sha256),
      answers: new Map(),
    });
    expect(old.id).toBeDefined();
  });

  it('loads an app without releases, and null for unknown or malformed ids', async () => {
    const appId = await seedApp(ctx, await seedWorkspace(ctx, 'hobby'));
    const store = loader(ctx.deps.db, url);
    const route = await store.load(appId);
    expect(route?.plan).toBe('hobby');
    expect(route?.channels.size).toBe(0);
    expect(await store.load('5d3c4f2e-1111-4222-8333-444455556666')).toBeNull();
    expect(await store.load("x' OR 1=1 --")).toBeNull();
  });

  it('builds bundle URLs from PUBLIC_URL without a doubled slash', async () => {
    const appId = await seedApp(ctx, await seedWorkspace(ctx, 'team'));
    const release = await seedRelease(ctx, appId);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/updates/check',
      payload: { app_id: appId, device_id: 'd' },
    });
    expect(res.json().update.url).toBe(`https://cdn.example.com/ota/api/v1/bundles/${release.sha256}`);
  });
});

describe('routing invalidation over Redis', () => {
  let connections: Redis[] = [];
  const log = createLogger('silent', 'test');
  const listenerFor = (cache: RoutingCache) =>
    new RoutingInvalidationListener(
      () => {
        const c = createRedis(ctx.config.redis);
        connections.push(c);
        return c;
      },
      invalidationChannel(ctx.deps.keys),
      cache,
      log,
    );
  afterAll(() => {
    connections = [];
  });

  it('drops one app on {appId} and every app of a workspace on {workspaceId}', async () => {
    const ws = await seedWorkspace(ctx, 'pro');
    const [a1, a2] = [await seedApp(ctx, ws), await seedApp(ctx, ws)];
    const other = await seedApp(ctx, await seedWorkspace(ctx, 'pro'));
    const cache = new RoutingCache(loader(ctx.deps.db, url), { ttlMs: 60_000 });
    const listener = listenerFor(cache);
    await listener.start();
    try {
      for (const id of [a1, a2, other]) await cache.get(id);
      await publishInvalidation(ctx.deps.redis, ctx.deps.keys, { appId: a1 });
      expect(await eventually(async () => cache.peek(a1) === undefined)).toBe(true);
      expect(cache.peek(a2)).toBeDefined();

      await cache.get(a1);
      await publishInvalidation(ctx.deps.redis, ctx.deps.keys, { workspaceId: ws });
      expect(await eventually(async () => cache.peek(a1) === undefined && cache.peek(a2) === undefined)).toBe(
        true,
      );
      expect(cache.peek(other)).toBeDefined();
    } finally {
      await listener.stop();
    }
  });

  it('ignores malformed messages', async () => {
    const ws = await seedWorkspace(ctx, 'pro');
    const [appId, marker] = [await seedApp(ctx, ws), await seedApp(ctx, ws)];
    const cache = new RoutingCache(loader(ctx.deps.db, url), { ttlMs: 60_000 });
    const listener = listenerFor(cache);
    await listener.start();
    try {
      await cache.get(appId);
      await cache.get(marker);
      const channel = invalidationChannel(ctx.deps.keys);
      for (const raw of ['not json', '42', 'null', '{"appId": 5}', '[]'])
        await ctx.deps.redis.publish(channel, raw);
      await publishInvalidation(ctx.deps.redis, ctx.deps.keys, { appId: marker });
      // Messages arrive in order: once the marker is dropped, the malformed ones were seen and ignored.
      expect(await eventually(async () => cache.peek(marker) === undefined)).toBe(true);
      expect(cache.peek(appId)).toBeDefined();
    } finally {
      await listener.stop();
    }
  });

  it('clears the whole cache when its connection comes back, since messages may have been missed', async () => {
    const appId = await seedApp(ctx, await seedWorkspace(ctx, 'pro'));
    const cache = new RoutingCache(loader(ctx.deps.db, url), { ttlMs: 60_000 });
    const listener = listenerFor(cache);
    await listener.start();
    try {
      await cache.get(appId);
      connections.at(-1)!.disconnect(true);
      expect(await eventually(async () => cache.peek(appId) === undefined, 3000)).toBe(true);
      // Still subscribed after the reconnect.
      await cache.get(appId);
      const resubscribed = await eventually(async () => {
        await publishInvalidation(ctx.deps.redis, ctx.deps.keys, { appId });
        return cache.peek(appId) === undefined;
      }, 3000);
      expect(resubscribed).toBe(true);
    } finally {
      await listener.stop();
    }
  });

  it('starts without Redis, within its wait, and stops cleanly', async () => {
    const cache = new RoutingCache(loader(ctx.deps.db, url), { ttlMs: 60_000 });
    const quiet = createLogger('silent', 'test');
    const warn = vi.spyOn(quiet, 'warn');
    let connection: Redis | undefined;
    const listener = new RoutingInvalidationListener(
      () => {
        connection = createRedis('redis://127.0.0.1:1', { maxRetriesPerRequest: null });
        return connection;
      },
      invalidationChannel(ctx.deps.keys),
      cache,
      quiet,
    );
    await listener.start(100);
    // It stopped waiting, not trying: the connection is still on its way, and the cache leans on its TTL.
    expect(connection?.status).not.toBe('ready');
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/not subscribed yet/));
    const appId = await seedApp(ctx, await seedWorkspace(ctx, 'pro'));
    expect(await cache.get(appId)).toBeDefined();

    // Stopping ends the attempts instead of leaving the connection retrying in the background.
    const disconnect = vi.spyOn(connection!, 'disconnect');
    await listener.stop();
    expect(disconnect).toHaveBeenCalled();
  });

  it('serves a change made without an invalidation once the TTL backstop passes', async () => {
    const appId = await seedApp(ctx, await seedWorkspace(ctx, 'team'));
    const first = await seedRelease(ctx, appId);
    expect(await offered(ctx, { app_id: appId, device_id: 'd' })).toBe(first.id);
    await ctx.deps.db.query('UPDATE releases SET active = false WHERE id = $1', [first.id]);
    // No message: the API process keeps answering from memory.
    expect(await offered(ctx, { app_id: appId, device_id: 'd' })).toBe(first.id);

    let now = 0;
    const cache = new RoutingCache(loader(ctx.deps.db, url), { ttlMs: 30_000, now: () => now });
    await ctx.deps.db.query('UPDATE releases SET active = true WHERE id = $1', [first.id]);
    expect((await cache.get(appId))?.channels.get('production')).toHaveLength(1);
    await ctx.deps.db.query('UPDATE releases SET active = false WHERE id = $1', [first.id]);
    now = 29_999;
    expect((await cache.get(appId))?.channels.get('production')).toHaveLength(1);
    now = 30_000;
    expect((await cache.get(appId))?.channels.get('production')).toBeUndefined();
  });
});
