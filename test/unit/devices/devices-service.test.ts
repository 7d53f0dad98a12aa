import { describe, expect, it, vi } from 'vitest';
import { createDevicesService } from '../../../src/devices/devices.service.js';
import { createFakeStores, principal } from '../../helpers/fakes.js';

function world() {
  const stores = createFakeStores();
  const invalidate = vi.fn(async () => {});
  const counted = stores.countedDevices;
  const service = createDevicesService(stores, { counted, invalidate, windowDays: 30 });
  return { stores, counted, invalidate, service, ws: stores.workspaces.add() };
}

describe('DevicesService on fake stores', () => {
  it('lists the counted devices by page with the plan’s cap, for admins of the workspace only', async () => {
    const { stores, counted, service, ws } = world();
    for (const id of ['a', 'b', 'c']) {
      counted.seen(ws.id, `device-${id}`);
      stores.clock.now += 1000;
    }
    const admin = principal(ws.id, 'admin');
    expect(await service.list(admin, ws.id, { limit: 2, offset: 0 })).toMatchObject({
      devices: [{ device_id: 'device-c' }, { device_id: 'device-b' }],
      total: 3,
      next_offset: 2,
      device_cap: 100,
      window_days: 30,
    });
    expect((await service.list(admin, ws.id, { limit: 2, offset: 2 })).next_offset).toBeNull();
    await expect(
      service.list(principal(ws.id, 'developer'), ws.id, { limit: 2, offset: 0 }),
    ).rejects.toMatchObject({
      status: 403,
    });
    await expect(
      service.list(admin, stores.workspaces.add().id, { limit: 2, offset: 0 }),
    ).rejects.toMatchObject({
      status: 403,
    });
  });

  it('a release frees the place, records it, and tells every process; a second release is a 404 that records nothing', async () => {
    const { stores, counted, invalidate, service, ws } = world();
    counted.seen(ws.id, 'device-a');
    const owner = principal(ws.id, 'owner');
    await service.release(owner, ws.id, 'device-a');
    expect(await counted.counted(ws.id)).toBe(0);
    expect(stores.audit.entries).toEqual([
      expect.objectContaining({
        action: 'device.release',
        details: expect.objectContaining({ device_id: 'device-a' }),
      }),
    ]);
    expect(counted.forgotten).toEqual([[ws.id, 'device-a']]);
    expect(invalidate).toHaveBeenCalledWith({ releasedDevice: { workspaceId: ws.id, deviceId: 'device-a' } });

    await expect(service.release(owner, ws.id, 'device-a')).rejects.toMatchObject({
      code: 'device_not_counted',
    });
    expect(stores.audit.entries).toHaveLength(1);
    expect(invalidate).toHaveBeenCalledTimes(1);
  });

  it('a release that loses the race to another writes no entry', async () => {
    const { stores, counted, service, ws } = world();
    counted.seen(ws.id, 'device-a');
    vi.spyOn(counted, 'remove').mockResolvedValueOnce(false);
    await expect(service.release(principal(ws.id, 'admin'), ws.id, 'device-a')).rejects.toMatchObject({
      status: 404,
    });
    expect(stores.audit.entries).toEqual([]);
  });
});
