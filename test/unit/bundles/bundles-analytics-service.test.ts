import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { createAnalyticsService } from '../../../src/analytics/stats.service.js';
import { createBundlesService } from '../../../src/bundles/bundles.service.js';
import { FakeBlobStore } from '../../../src/bundles/fake-blob-store.js';
import { createFakeStores, principal } from '../../helpers/fakes.js';

async function withApp() {
  const stores = createFakeStores();
  const ws = stores.workspaces.add();
  const app = (await stores.transaction((tx) => stores.apps.insert(tx, ws.id, 'Shop')))!;
  return { stores, ws, app };
}

describe('BundlesService on fake stores', () => {
  it('stores the bytes under their sha256 and records them for the app once', async () => {
    const { stores, ws, app } = await withApp();
    const blobs = new FakeBlobStore();
    const bundles = createBundlesService(stores, { blobs, maxBytes: 10, maxUnzippedBytes: 4 * 10 });
    const dev = principal(ws.id, 'developer');
    const sha256 = createHash('sha256').update('bundle').digest('hex');
    expect(
      await bundles.upload(dev, app.id, Readable.from([Buffer.from('bun'), Buffer.from('dle')]), 6),
    ).toEqual({
      sha256,
      size: 6,
    });
    await bundles.upload(dev, app.id, Readable.from([Buffer.from('bundle')]), undefined);
    expect(await stores.bundles.find(app.id, sha256)).toEqual({ sha256, size: 6 });
    expect(stores.bundles.rows.size).toBe(1);
    expect(blobs.blobs.get(sha256)?.toString()).toBe('bundle');
  });

  it('refuses before reading: the role, an unknown app, a declared length over the limit', async () => {
    const { stores, ws, app } = await withApp();
    const blobs = new FakeBlobStore();
    const put = vi.spyOn(blobs, 'put');
    const bundles = createBundlesService(stores, { blobs, maxBytes: 10, maxUnzippedBytes: 4 * 10 });
    const body = () => Readable.from([Buffer.from('x')]);
    await expect(bundles.upload(principal(ws.id, 'viewer'), app.id, body(), 1)).rejects.toMatchObject({
      status: 403,
    });
    const stranger = principal(stores.workspaces.add().id, 'owner');
    await expect(bundles.upload(stranger, app.id, body(), 1)).rejects.toMatchObject({ status: 404 });
    await expect(bundles.upload(principal(ws.id, 'owner'), app.id, body(), 11)).rejects.toMatchObject({
      status: 413,
    });
    expect(put).not.toHaveBeenCalled();
  });

  it('refuses an undeclared body past the limit, an empty one, and one cut short', async () => {
    const { stores, ws, app } = await withApp();
    const blobs = new FakeBlobStore();
    const bundles = createBundlesService(stores, { blobs, maxBytes: 4, maxUnzippedBytes: 4 * 4 });
    const owner = principal(ws.id, 'owner');
    await expect(
      bundles.upload(owner, app.id, Readable.from([Buffer.from('12345')]), undefined),
    ).rejects.toMatchObject({ status: 413 });
    await expect(bundles.upload(owner, app.id, Readable.from([]), undefined)).rejects.toMatchObject({
      code: 'empty_bundle',
    });
    const cut = new Readable({
      read() {
        this.destroy(new Error('reset'));
      },
    });
    await expect(bundles.upload(owner, app.id, cut, 4)).rejects.toMatchObject({ code: 'upload_incomplete' });
    await expect(bundles.upload(owner, app.id, Readable.from([]), 0)).rejects.toMatchObject({
      code: 'empty_bundle',
    });
    expect(stores.bundles.rows.size).toBe(0);
    // A refused upload leaves no bytes behind either.
    expect(blobs.blobs.size).toBe(0);
  });
});

describe('AnalyticsService on a fake stats store', () => {
  const point = (ts: string, checks: number) => ({
    ts,
    module_id: null,
    checks,
    downloads: 0,
    activations: 0,
    errors: 0,
    devices: checks,
  });

  it('reads the last day by hour by default, for any role of the app’s workspace only', async () => {
    const { stores, ws, app } = await withApp();
    const now = Date.parse('2030-01-02T10:30:00Z');
    const directory = {
      get: async (id: string) => (id.toLowerCase() === app.id ? { appId: app.id, workspaceId: ws.id } : null),
    };
    const analytics = createAnalyticsService(stores, { apps: directory, now: () => now });
    stores.stats.points.set(app.id, [
      point('2030-01-01T09:00:00.000Z', 1),
      point('2030-01-02T10:00:00.000Z', 2),
    ]);
    const { series } = await analytics.series(principal(ws.id, 'viewer'), app.id.toUpperCase(), {});
    expect(stores.stats.reads[0]).toEqual({
      appId: app.id,
      from: new Date('2030-01-01T10:30:00Z'),
      to: new Date(now),
      interval: 'hour',
    });
    expect(series.map((p) => p.checks)).toEqual([2]);
    await expect(
      analytics.series(principal(stores.workspaces.add().id, 'owner'), app.id, {}),
    ).rejects.toMatchObject({ status: 404, code: 'app_not_found' });
  });

  it('refuses empty, out-of-range and oversized ranges without reading', async () => {
    const { stores, ws, app } = await withApp();
    const analytics = createAnalyticsService(stores, {
      apps: { get: async (id: string) => ({ appId: id, workspaceId: ws.id }) },
    });
    const viewer = principal(ws.id, 'viewer');
    for (const [query, code] of [
      [{ from: '2030-01-02T00:00:00Z', to: '2030-01-01T00:00:00Z' }, 'invalid_range'],
      [{ from: '1960-01-01T00:00:00Z', to: '2030-01-01T00:00:00Z' }, 'invalid_range'],
      [{ from: '2020-01-01T00:00:00Z', to: '2030-01-01T00:00:00Z', interval: 'minute' }, 'range_too_large'],
    ] as const) {
      await expect(analytics.series(viewer, app.id, query)).rejects.toMatchObject({ status: 400, code });
    }
    expect(stores.stats.reads).toEqual([]);
  });

  it('derives release statistics from the counts (fake store: zero unless set)', async () => {
    const { stores } = await withApp();
    stores.stats.counts.set('r1', { downloads: 10, activations: 8, errors: 2, channelDevices: 40 });
    const stats = await stores.stats.statsFor([
      { id: 'r1', app_id: 'a', channel: 'production', rollout_pct: 50 },
      { id: 'r2', app_id: 'a', channel: 'production', rollout_pct: 100 },
    ]);
    expect(stats.get('r1')).toMatchObject({
      eligible_devices: 20,
      received_pct: 40,
      adoption: 0.8,
      failure_rate: 0.2,
    });
    expect(stats.get('r2')).toMatchObject({ downloads: 0, targeted_pct: 100 });
  });
});
