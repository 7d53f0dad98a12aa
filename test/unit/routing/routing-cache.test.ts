import { describe, expect, it } from 'vitest';
import { RoutingCache } from '../../../src/routing/routing.cache.js';
import type { AppRoute, RoutingSource } from '../../../src/routing/routing.types.js';
import { retainedBytesEach, sliceOfPaddedText } from '../../helpers/retained-heap.js';

function route(appId: string, workspaceId = 'ws-1', version = 1): AppRoute {
  return {
    appId,
    workspaceId,
    plan: 'pro',
    channels: new Map([['production', [{ version } as never]]]),
    modules: new Set(),
    answers: new Map(),
  };
}

/** A source whose loads finish only when the test says so. */
class ControlledSource implements RoutingSource {
  loads: Array<{ appId: string; resolve: (r: AppRoute | null) => void; reject: (e: Error) => void }> = [];
  load(appId: string): Promise<AppRoute | null> {
    return new Promise((resolve, reject) => this.loads.push({ appId, resolve, reject }));
  }
}

class MapSource implements RoutingSource {
  calls = 0;
  constructor(readonly routes: Map<string, AppRoute>) {}
  async load(appId: string): Promise<AppRoute | null> {
    this.calls += 1;
    return this.routes.get(appId) ?? null;
  }
}

describe('routing cache', () => {
  it('shares one load among concurrent misses of the same app', async () => {
    const source = new ControlledSource();
    const cache = new RoutingCache(source, { ttlMs: 60_000 });
    const waiting = Array.from({ length: 20 }, () => cache.get('app-1'));
    expect(source.loads).toHaveLength(1);
    source.loads[0]!.resolve(route('app-1'));
    const results = await Promise.all(waiting);
    expect(new Set(results).size).toBe(1);
    expect(cache.peek('app-1')).toBe(results[0]);
  });

  it('does not cache a load overtaken by an invalidation, and the next get loads again', async () => {
    const source = new ControlledSource();
    const cache = new RoutingCache(source, { ttlMs: 60_000 });
    const before = cache.get('app-1');
    cache.drop('app-1');
    const after = cache.get('app-1');
    expect(source.loads).toHaveLength(2);
    source.loads[0]!.resolve(route('app-1', 'ws-1', 1));
    source.loads[1]!.resolve(route('app-1', 'ws-1', 2));
    expect((await before)?.channels.get('production')?.[0]?.version).toBe(1);
    expect((await after)?.channels.get('production')?.[0]?.version).toBe(2);
    expect(cache.peek('app-1')?.channels.get('production')?.[0]?.version).toBe(2);
  });

  it('drops a load in flight on a workspace invalidation (its workspace is not known yet)', async () => {
    const source = new ControlledSource();
    const cache = new RoutingCache(source, { ttlMs: 60_000 });
    const pending = cache.get('app-1');
    cache.dropWorkspace('ws-1');
    source.loads[0]!.resolve(route('app-1'));
    await pending;
    expect(cache.peek('app-1')).toBeUndefined();
  });

  it('expires entries after the TTL backstop, unknown apps sooner', async () => {
    let now = 0;
    const source = new MapSource(new Map([['known', route('known')]]));
    const cache = new RoutingCache(source, { ttlMs: 30_000, now: () => now });
    await cache.get('known');
    expect(await cache.get('unknown')).toBeNull();
    now = 2_000;
    expect(cache.peek('known')).toBeDefined();
    expect(cache.peek('unknown')).toBeUndefined();
    now = 29_999;
    expect(cache.peek('known')).toBeDefined();
    now = 30_000;
    expect(cache.peek('known')).toBeUndefined();
    expect(source.calls).toBe(2);
  });

  it('drops one app, or every app of a workspace, or everything', async () => {
    const routes = new Map([
      ['a1', route('a1', 'ws-1')],
      ['a2', route('a2', 'ws-1')],
      ['b1', route('b1', 'ws-2')],
    ]);
    const cache = new RoutingCache(new MapSource(routes), { ttlMs: 60_000 });
    for (const id of routes.keys()) await cache.get(id);
    cache.drop('a1');
    expect([cache.peek('a1'), cache.peek('a2'), cache.peek('b1')].map(Boolean)).toEqual([false, true, true]);
    await cache.get('a1');
    cache.dropWorkspace('ws-1');
    expect([cache.peek('a1'), cache.peek('a2'), cache.peek('b1')].map(Boolean)).toEqual([false, false, true]);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('holds at most maxApps entries, evicting the oldest', async () => {
    const routes = new Map(Array.from({ length: 10 }, (_, i) => [`app-${i}`, route(`app-${i}`)]));
    const cache = new RoutingCache(new MapSource(routes), { ttlMs: 60_000, maxApps: 3 });
    for (const id of routes.keys()) await cache.get(id);
    expect(cache.size).toBe(3);
    expect(cache.peek('app-0')).toBeUndefined();
    expect(cache.peek('app-9')).toBeDefined();
  });

  it('passes a failed load to its callers and caches nothing', async () => {
    const source = new ControlledSource();
    const cache = new RoutingCache(source, { ttlMs: 60_000 });
    const pending = cache.get('app-1');
    source.loads[0]!.reject(new Error('connection refused'));
    await expect(pending).rejects.toThrow('connection refused');
    expect(cache.peek('app-1')).toBeUndefined();
    void cache.get('app-1');
    expect(source.loads).toHaveLength(2);
  });

  it('serves an expired entry a little longer when reloading fails, but never one that was invalidated', async () => {
    let now = 0;
    const source = new ControlledSource();
    const cache = new RoutingCache(source, { ttlMs: 1000, now: () => now });
    const first = cache.get('app-1');
    source.loads[0]!.resolve(route('app-1'));
    const loaded = await first;
    now = 1000;
    const retry = cache.get('app-1');
    source.loads[1]!.reject(new Error('connection refused'));
    expect(await retry).toBe(loaded);
    expect(cache.peek('app-1')).toBe(loaded);

    cache.drop('app-1');
    const afterDrop = cache.get('app-1');
    source.loads[2]!.reject(new Error('connection refused'));
    await expect(afterDrop).rejects.toThrow('connection refused');
  });

  it('keys apps by their canonical lower-case id: any letter case shares one entry, and one drop clears it', async () => {
    const id = '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
    const source = new MapSource(new Map([[id, route(id)]]));
    const cache = new RoutingCache(source, { ttlMs: 60_000 });
    const upper = await cache.get(id.toUpperCase());
    expect(upper?.appId).toBe(id);
    expect(cache.peek(id)).toBe(upper);
    expect(source.calls).toBe(1);
    cache.drop(id);
    expect(cache.peek(id.toUpperCase())).toBeUndefined();
    await cache.get(id.toUpperCase());
    cache.drop(id.toUpperCase());
    expect(cache.peek(id)).toBeUndefined();
  });

  it('remembers unknown ids in a bounded structure of their own that never evicts a known app', async () => {
    const source = new MapSource(new Map([['known', route('known')]]));
    const cache = new RoutingCache(source, { ttlMs: 60_000, maxApps: 3, maxUnknownApps: 5 });
    await cache.get('known');
    for (let i = 0; i < 50; i++) expect(await cache.get(`stranger-${i}`)).toBeNull();
    expect(cache.peek('known')?.appId).toBe('known');
    // The newest unknown ids are still remembered (no query), the oldest were forgotten.
    const calls = source.calls;
    expect(await cache.get('stranger-49')).toBeNull();
    expect(source.calls).toBe(calls);
    expect(cache.peek('stranger-0')).toBeUndefined();
    expect(cache.unknownSize).toBeLessThanOrEqual(5);
  });

  it('keeps no request text alive with the unknown ids it remembers', async () => {
    // Loads as Postgres answers them, without the id becoming a property name (which would copy it).
    const cache = new RoutingCache({ load: async () => null }, { ttlMs: 60_000 });
    // An app id read from a path is a slice of the request's whole URL, padded query string and all.
    const perId = await retainedBytesEach(2000, (i) =>
      cache.get(
        sliceOfPaddedText('/api/v1/expo/', `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`),
      ),
    );
    expect(perId).toBeLessThan(2000);
    expect(cache.peek('00000007-0000-4000-8000-000000000000')).toBeNull();
  });
});
