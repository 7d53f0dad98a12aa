import { describe, expect, it, vi } from 'vitest';
import { createAppsService } from '../../../src/apps/apps.service.js';
import { createFakeStores, principal } from '../../helpers/fakes.js';

function world() {
  const stores = createFakeStores();
  const invalidate = vi.fn(async () => {});
  const ws = stores.workspaces.add();
  return { stores, invalidate, ws, apps: createAppsService(stores, { invalidate }) };
}

describe('AppsService on fake stores', () => {
  it('creates an app with its app.create entry in one transaction, then invalidates', async () => {
    const { stores, invalidate, ws, apps } = world();
    const dev = principal(ws.id, 'developer');
    const app = await apps.create(dev, { name: 'Shop' });
    expect(app).toMatchObject({ workspace_id: ws.id, name: 'Shop' });
    expect(stores.audit.entries).toEqual([
      expect.objectContaining({
        workspace_id: ws.id,
        app_id: app.id,
        actor: dev.actor,
        action: 'app.create',
        details: { app_id: app.id, name: 'Shop' },
      }),
    ]);
    expect(stores.transactions.committed).toBe(1);
    expect(invalidate).toHaveBeenCalledWith({ appId: app.id });
    expect(await apps.get(principal(ws.id, 'viewer'), app.id)).toMatchObject({
      channels: ['production'],
      fingerprints: [],
    });
  });

  it('refuses a second app of the same name with 409, writing nothing; another workspace may use it', async () => {
    const { stores, ws, apps } = world();
    const dev = principal(ws.id, 'developer');
    await apps.create(dev, { name: 'Shop' });
    await expect(apps.create(dev, { name: 'Shop' })).rejects.toMatchObject({
      status: 409,
      code: 'app_name_taken',
    });
    expect(stores.apps.rows).toHaveLength(1);
    expect(stores.audit.entries).toHaveLength(1);
    const other = stores.workspaces.add();
    await expect(apps.create(principal(other.id, 'developer'), { name: 'Shop' })).resolves.toMatchObject({
      name: 'Shop',
    });
  });

  it('names the API key of an api-key principal in its audit entry', async () => {
    const { stores, ws, apps } = world();
    const apiKey = { id: 'k-1', name: 'CI deploys', created_by: { id: 'u-1', email: 'ana@example.com' } };
    await apps.create(
      { ...principal(ws.id, 'developer'), kind: 'api-key', actor: 'api-key', apiKey },
      { name: 'Shop' },
    );
    expect(stores.audit.entries[0]).toMatchObject({
      actor: 'api-key',
      details: { name: 'Shop', api_key: apiKey },
    });
  });

  it('refuses a viewer before writing anything', async () => {
    const { stores, invalidate, ws, apps } = world();
    await expect(apps.create(principal(ws.id, 'viewer'), { name: 'x' })).rejects.toMatchObject({
      status: 403,
    });
    expect(stores.apps.rows).toEqual([]);
    expect(stores.audit.entries).toEqual([]);
    expect(stores.transactions.committed + stores.transactions.rolledBack).toBe(0);
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('leaves no app behind when its audit entry cannot be written (the transaction rolls back)', async () => {
    const { stores, invalidate, ws, apps } = world();
    vi.spyOn(stores.audit, 'append').mockRejectedValueOnce(new Error('audit down'));
    await expect(apps.create(principal(ws.id, 'owner'), { name: 'Shop' })).rejects.toThrow('audit down');
    expect(stores.apps.rows).toEqual([]);
    expect(stores.transactions.rolledBack).toBe(1);
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('registers a fingerprint once: a repeat answers the first registration and records nothing', async () => {
    const { stores, invalidate, ws, apps } = world();
    const dev = principal(ws.id, 'developer');
    const app = await apps.create(dev, { name: 'Shop' });
    invalidate.mockClear();
    const first = await apps.registerFingerprint(dev, app.id, 'fp-1');
    stores.clock.now += 60_000;
    const again = await apps.registerFingerprint(dev, app.id, 'fp-1');
    expect(first.created).toBe(true);
    expect(again).toEqual({ ...first, created: false });
    expect(stores.audit.entries.map((e) => e.action)).toEqual(['app.create', 'fingerprint.register']);
    expect(invalidate).toHaveBeenCalledTimes(1);
    stores.apps.addChannel(app.id, 'beta');
    expect(await apps.get(dev, app.id)).toMatchObject({
      channels: ['production', 'beta'],
      fingerprints: [{ fingerprint: 'fp-1' }],
    });
  });

  it('answers another workspace’s app as unknown', async () => {
    const { stores, ws, apps } = world();
    const mine = await apps.create(principal(ws.id, 'owner'), { name: 'Shop' });
    const stranger = principal(stores.workspaces.add().id, 'owner');
    for (const call of [apps.get(stranger, mine.id), apps.registerFingerprint(stranger, mine.id, 'fp')]) {
      await expect(call).rejects.toMatchObject({ status: 404, code: 'app_not_found' });
    }
    expect(await apps.list(stranger)).toEqual([]);
    expect(stores.audit.entries.map((e) => e.action)).toEqual(['app.create']);
  });
});
