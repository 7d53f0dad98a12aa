import { describe, expect, it, vi } from 'vitest';
import {
  createDeploymentKeysService,
  MAX_KEYS_PER_APP,
} from '../../../src/codepush/deployment-keys.service.js';
import { createFakeStores, principal } from '../../helpers/fakes.js';

async function world(plan: 'hobby' | 'pro' = 'hobby') {
  const stores = createFakeStores();
  const ws = stores.workspaces.add({ plan });
  const app = (await stores.transaction((tx) => stores.apps.insert(tx, ws.id, 'Shop')))!;
  const invalidate = vi.fn(async () => {});
  return { stores, ws, app, invalidate, service: createDeploymentKeysService(stores, { invalidate }) };
}

describe('DeploymentKeysService on fake stores', () => {
  it('makes production keys on any plan, other channels only with a plan that has them', async () => {
    const { stores, ws, app, invalidate, service } = await world();
    const dev = principal(ws.id, 'developer');
    const key = await service.create(dev, app.id, 'production');
    expect(key.key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(await stores.deploymentKeys.appOf(key.key)).toBe(app.id);
    expect(invalidate).toHaveBeenCalledWith({ appId: app.id });
    await expect(service.create(dev, app.id, 'beta')).rejects.toMatchObject({ status: 402 });
    await stores.transaction((tx) => stores.workspaces.setPlan(tx, ws.id, 'pro'));
    stores.clock.now += 1000;
    expect(await service.create(dev, app.id, 'beta')).toMatchObject({ channel: 'beta' });
    expect((await service.list(principal(ws.id, 'viewer'), app.id)).map((k) => k.channel)).toEqual([
      'production',
      'beta',
    ]);
  });

  it('refuses viewers, strangers and the key past the limit, writing nothing', async () => {
    const { stores, ws, app, invalidate, service } = await world();
    await expect(service.create(principal(ws.id, 'viewer'), app.id, 'production')).rejects.toMatchObject({
      status: 403,
    });
    const stranger = principal(stores.workspaces.add().id, 'owner');
    await expect(service.create(stranger, app.id, 'production')).rejects.toMatchObject({ status: 404 });
    await expect(service.list(stranger, app.id)).rejects.toMatchObject({ status: 404 });
    const dev = principal(ws.id, 'developer');
    for (let i = 0; i < MAX_KEYS_PER_APP; i += 1) await service.create(dev, app.id, 'production');
    invalidate.mockClear();
    await expect(service.create(dev, app.id, 'production')).rejects.toMatchObject({
      code: 'too_many_deployment_keys',
    });
    expect(stores.deploymentKeys.rows).toHaveLength(MAX_KEYS_PER_APP);
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('a deleted key is gone at once; an unknown one is a 404', async () => {
    const { stores, ws, app, invalidate, service } = await world();
    const dev = principal(ws.id, 'developer');
    const { key } = await service.create(dev, app.id, 'production');
    await service.remove(dev, app.id, key);
    expect(await stores.deploymentKeys.appOf(key)).toBeNull();
    expect(invalidate).toHaveBeenCalledTimes(2);
    await expect(service.remove(dev, app.id, key)).rejects.toMatchObject({
      code: 'deployment_key_not_found',
    });
  });
});
