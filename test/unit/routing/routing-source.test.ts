import { describe, expect, it } from 'vitest';
import { createReleasesService } from '../../../src/releases/releases.service.js';
import { createRoutingSource, MAX_KNOWN_MODULES } from '../../../src/routing/routing.source.js';
import { createFakeStores, principal } from '../../helpers/fakes.js';

const SHA = 'ab'.repeat(32);

async function world() {
  const stores = createFakeStores();
  const ws = stores.workspaces.add({ plan: 'pro' });
  const app = (await stores.transaction((tx) => stores.apps.insert(tx, ws.id, 'Shop')))!;
  await stores.bundles.record(app.id, SHA, 99);
  const releases = createReleasesService(stores, { invalidate: async () => {} });
  const dev = principal(ws.id, 'developer');
  const push = (
    version: string,
    more: { rollout_pct?: number; channel?: string; fingerprint?: string } = {},
  ) => releases.push(dev, { app_id: app.id, version, sha256: SHA, ...more });
  const source = createRoutingSource(stores, {
    bundleUrl: (sha) => `https://cdn.example.com/${sha}`,
    slots: [],
  });
  return { stores, ws, app, dev, releases, push, source };
}

describe('routing source on fake stores', () => {
  it('builds the app route: channels newest first, cut after the release that admits everyone', async () => {
    const { ws, app, push, releases, dev, source, stores } = await world();
    const old = await push('1.0.0');
    const full = await push('1.1.0');
    const staged = await push('1.2.0', { rollout_pct: 20 });
    const rolled = await push('1.3.0');
    await releases.rollback(dev, rolled.id);
    const beta = await push('0.1.0', { channel: 'beta' });
    await stores.transaction((tx) => stores.deploymentKeys.insert(tx, 'key-one', app.id, 'beta'));

    const route = (await source.load(app.id))!;
    expect(route).toMatchObject({ appId: app.id, workspaceId: ws.id, plan: 'pro' });
    expect(route.channels.get('production')?.map((r) => r.id)).toEqual([staged.id, full.id]);
    expect(route.channels.get('beta')?.[0]).toMatchObject({
      id: beta.id,
      version: '0.1.0',
      rolloutPct: 100,
      size: 99,
      url: `https://cdn.example.com/${SHA}`,
    });
    expect([...route.modules]).toEqual([beta.id, rolled.id, staged.id, full.id, old.id]);
    expect(route.deploymentKeys).toEqual(new Map([['key-one', 'beta']]));
    expect(MAX_KNOWN_MODULES).toBeGreaterThan(route.modules.size);
  });

  it('answers null for an unknown app and for a string that is no id', async () => {
    const { source } = await world();
    expect(await source.load('00000000-0000-4000-8000-000000000000')).toBeNull();
    expect(await source.load("x' OR 1=1")).toBeNull();
  });
});
