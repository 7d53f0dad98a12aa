import { describe, expect, it } from 'vitest';
import type { BlobLinks } from '../../../src/bundles/blob-links.js';
import type { ExpoRouteRow } from '../../../src/expo/expo.route.js';
import { expoRouteWithLinks } from '../../../src/expo/expo-route-links.js';
import { RoutingCache } from '../../../src/routing/routing.cache.js';
import type { AppRoute, RoutingSource } from '../../../src/routing/routing.types.js';

/** Precomputed answers carry presigned URLs: the cache must not hand them out past half their lifetime. */
function route(handOutUntil?: number): AppRoute {
  return {
    appId: 'app',
    workspaceId: 'ws',
    plan: 'team',
    channels: new Map(),
    modules: new Set(),
    answers: new Map(),
    ...(handOutUntil !== undefined ? { handOutUntil } : {}),
  };
}

class Source implements RoutingSource {
  loads = 0;
  fail = false;
  constructor(public next: () => AppRoute) {}
  async load(): Promise<AppRoute> {
    this.loads += 1;
    if (this.fail) throw new Error('postgres away');
    return this.next();
  }
}

describe('routing cache entries with presigned URLs', () => {
  it('expire when their URLs reach half their lifetime, before the TTL backstop', async () => {
    let now = 1_000;
    const source = new Source(() => route(now + 10_000));
    const cache = new RoutingCache(source, { ttlMs: 30_000, now: () => now });
    await cache.get('app');
    now = 10_999;
    expect(cache.peek('app')).toBeDefined();
    now = 11_000;
    expect(cache.peek('app')).toBeUndefined();
    await cache.get('app');
    expect(source.loads).toBe(2);
  });

  it('keep the TTL backstop when URLs never expire', async () => {
    let now = 0;
    const cache = new RoutingCache(new Source(() => route()), { ttlMs: 30_000, now: () => now });
    await cache.get('app');
    now = 29_999;
    expect(cache.peek('app')).toBeDefined();
  });

  it('are served stale through a failed reload only until their URLs must stop being handed out', async () => {
    let now = 0;
    const source = new Source(() => route(40_000));
    const cache = new RoutingCache(source, { ttlMs: 30_000, now: () => now });
    await cache.get('app');
    source.fail = true;
    now = 30_000;
    expect(await cache.get('app')).toMatchObject({ handOutUntil: 40_000 });
    now = 39_000;
    // Stale retry would last 5 s; the URLs allow 1 s more.
    expect(await cache.get('app')).toBeDefined();
    now = 40_000;
    await expect(cache.get('app')).rejects.toThrow('postgres away');
  });
});

const SHA = (c: string) => c.repeat(64);
const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64url');

function manifestRow(id: string, part: ExpoRouteRow['part'], signed: boolean): ExpoRouteRow {
  const body =
    part === 'directive'
      ? { type: 'rollBackToEmbedded', parameters: { commitTime: '2026-01-01T00:00:01.000Z' } }
      : {
          id,
          launchAsset: {
            hash: b64(SHA('a')),
            key: 'k1',
            contentType: 'application/javascript',
            url: 'http://api/a',
          },
          assets: [
            {
              hash: b64(SHA('b')),
              key: 'k2',
              contentType: 'image/png',
              fileExtension: '.png',
              url: 'http://api/b',
            },
          ],
          metadata: {},
          extra: {},
        };
  return {
    id,
    version: '1.0.0',
    channel: 'production',
    rollout_pct: 100,
    mandatory: false,
    notes: '',
    sha256: SHA('a'),
    size: 10,
    fingerprint: '1',
    active: true,
    created_at: new Date(0),
    part,
    body: Buffer.from(JSON.stringify(body)),
    signature: signed ? 'c2lnbmF0dXJlc2lnbmF0dXJl' : null,
    key_id: signed ? 'main' : null,
  } as ExpoRouteRow;
}

describe('Expo routes with store URLs', () => {
  const links: BlobLinks = {
    link: async (sha256, contentType) => ({
      url: `https://bucket/${sha256.slice(0, 1)}?type=${contentType ?? '-'}`,
      handOutUntil: sha256.startsWith('b') ? 5_000 : 9_000,
    }),
  };

  const inputs = (store: BlobLinks | null) => ({
    links: store,
    apiBundleUrl: (sha: string) => `http://api/${sha}`,
    launchUrl: (sha: string) => `http://api/app/assets/${sha}.bundle`,
  });

  it('give unsigned manifests the store URLs of their assets, with their types, and say until when', async () => {
    const rows = [manifestRow('r1', 'ios', false), manifestRow('r1', 'directive', false)];
    const { expo, handOutUntil } = await expoRouteWithLinks(rows, inputs(links));
    const manifest = JSON.parse(expo!.releases.get('r1')!.platforms.ios!.manifest.toString('utf8'));
    // The launch asset stays the service's: its URL answers patches (docs/reference/delta-updates.md).
    expect(manifest.launchAsset.url).toBe(`http://api/app/assets/${SHA('a')}.bundle`);
    expect(manifest.assets[0].url).toBe('https://bucket/b?type=image/png');
    expect(expo!.releases.get('r1')!.release.url).toBe('https://bucket/a?type=-');
    expect(handOutUntil).toBe(5_000);
  });

  it('never rewrite a signed manifest: its signature covers its URLs', async () => {
    const rows = [manifestRow('r2', 'ios', true), manifestRow('r2', 'directive', true)];
    const { expo } = await expoRouteWithLinks(rows, inputs(links));
    expect(expo!.releases.get('r2')!.platforms.ios!.manifest.equals(rows[0]!.body)).toBe(true);
  });

  it('serve manifests as pushed without store URLs (the disk store)', async () => {
    const rows = [manifestRow('r3', 'ios', false), manifestRow('r3', 'directive', false)];
    const pushed = JSON.parse(rows[0]!.body.toString('utf8'));
    pushed.launchAsset.url = `http://api/app/assets/${SHA('a')}.bundle`;
    rows[0]!.body = Buffer.from(JSON.stringify(pushed));
    const { expo, handOutUntil } = await expoRouteWithLinks(rows, inputs(null));
    expect(expo!.releases.get('r3')!.platforms.ios!.manifest.equals(rows[0]!.body)).toBe(true);
    expect(handOutUntil).toBeUndefined();
  });

  it("move an unsigned manifest's launch asset from an old URL to the service's own under the app", async () => {
    const rows = [manifestRow('r4', 'ios', false), manifestRow('r4', 'directive', false)];
    const { expo } = await expoRouteWithLinks(rows, inputs(null));
    const manifest = JSON.parse(expo!.releases.get('r4')!.platforms.ios!.manifest.toString('utf8'));
    expect(manifest.launchAsset.url).toBe(`http://api/app/assets/${SHA('a')}.bundle`);
    expect(manifest.assets[0].url).toBe('http://api/b');
  });
});
