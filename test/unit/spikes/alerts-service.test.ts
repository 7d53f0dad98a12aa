import { describe, expect, it } from 'vitest';
import { createAlertsService } from '../../../src/spikes/alerts.service.js';
import { createFakeStores, principal } from '../../helpers/fakes.js';

async function world(plan: 'hobby' | 'pro' = 'pro') {
  const stores = createFakeStores();
  const ws = stores.workspaces.add({ plan });
  const app = (await stores.transaction((tx) => stores.apps.insert(tx, ws.id, 'Shop')))!;
  return { stores, ws, app, service: createAlertsService(stores) };
}

describe('AlertsService on fake stores', () => {
  it('any role reads, developers change; another workspace’s app is unknown', async () => {
    const { stores, ws, app, service } = await world();
    expect(await service.get(principal(ws.id, 'viewer'), app.id)).toMatchObject({ threshold: 0.05 });
    await expect(
      service.update(principal(ws.id, 'viewer'), app.id, { threshold: 0.5 }),
    ).rejects.toMatchObject({
      status: 403,
    });
    const dev = principal(ws.id, 'developer');
    expect(await service.update(dev, app.id, { threshold: 0.5 })).toMatchObject({ threshold: 0.5 });
    const stranger = principal(stores.workspaces.add({ plan: 'pro' }).id, 'owner');
    await expect(service.get(stranger, app.id)).rejects.toMatchObject({ status: 404 });
    await expect(service.update(stranger, app.id, { threshold: 0.9 })).rejects.toMatchObject({ status: 404 });
    expect(await stores.alerts.get(app.id)).toMatchObject({ threshold: 0.5 });
  });

  it('both actions are open to every plan, like pause and rollback themselves', async () => {
    const { stores, ws, app, service } = await world('hobby');
    const dev = principal(ws.id, 'developer');
    expect(await service.update(dev, app.id, { action: 'pause' })).toMatchObject({ action: 'pause' });
    expect(await service.update(dev, app.id, { action: 'rollback', minSample: 20 })).toMatchObject({
      action: 'rollback',
      minSample: 20,
    });
    expect(stores.alerts.rows.get(app.id)?.action).toBe('rollback');
  });
});
