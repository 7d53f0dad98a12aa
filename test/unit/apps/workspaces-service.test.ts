import { describe, expect, it, vi } from 'vitest';
import { createWorkspacesService } from '../../../src/workspaces/workspaces.service.js';
import { createFakeStores, principal } from '../../helpers/fakes.js';

function world() {
  const stores = createFakeStores();
  const invalidate = vi.fn(async () => {});
  const devices = { distinctDevices: vi.fn(async () => 4321) };
  const cap = {
    counted: vi.fn(async () => 99),
    refusedDevices: vi.fn(async () => ({ device_cap: 4, new_device_limit: 0 })),
  };
  const service = createWorkspacesService(stores, { invalidate, devices, cap, windowDays: 30 });
  return { stores, invalidate, devices, cap, service, ws: stores.workspaces.add() };
}

describe('WorkspacesService on fake stores', () => {
  it('changes the plan with its plan.change entry, then invalidates; the same plan again changes nothing', async () => {
    const { stores, invalidate, service, ws } = world();
    const owner = principal(ws.id, 'owner');
    expect(await service.changePlan(owner, ws.id, 'team')).toEqual({ id: ws.id, plan: 'team' });
    expect(await service.planOf(ws.id)).toBe('team');
    expect(stores.audit.entries).toEqual([
      expect.objectContaining({
        action: 'plan.change',
        actor: owner.actor,
        details: { old: { plan: 'hobby' }, new: { plan: 'team' } },
      }),
    ]);
    expect(invalidate).toHaveBeenCalledWith({ workspaceId: ws.id });

    await service.changePlan(owner, ws.id, 'team');
    expect(stores.audit.entries).toHaveLength(1);
    expect(invalidate).toHaveBeenCalledTimes(1);
  });

  it('is the owner’s to change, in their own workspace only', async () => {
    const { stores, service, ws } = world();
    await expect(service.changePlan(principal(ws.id, 'admin'), ws.id, 'pro')).rejects.toMatchObject({
      status: 403,
    });
    const other = stores.workspaces.add();
    await expect(service.changePlan(principal(ws.id, 'owner'), other.id, 'pro')).rejects.toMatchObject({
      status: 403,
    });
    expect((await stores.workspaces.find(other.id))?.plan).toBe('hobby');
    expect(stores.audit.entries).toEqual([]);
  });

  it('keeps the old plan when the audit entry fails', async () => {
    const { stores, invalidate, service, ws } = world();
    vi.spyOn(stores.audit, 'append').mockRejectedValueOnce(new Error('no'));
    await expect(service.changePlan(principal(ws.id, 'owner'), ws.id, 'pro')).rejects.toThrow('no');
    expect(await service.planOf(ws.id)).toBe('hobby');
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('reports usage: the exact counted devices under a cap, the estimate without one', async () => {
    const { stores, devices, cap, service, ws } = world();
    stores.workspaces.setMembers(ws.id, 3);
    const viewer = principal(ws.id, 'viewer', 'api-key');
    expect(await service.usage(viewer, ws.id)).toEqual({
      plan: 'hobby',
      distinct_devices: 99,
      device_cap: 100,
      window_days: 30,
      members: 3,
      member_cap: 1,
      refused_devices: { device_cap: 4, new_device_limit: 0 },
    });
    expect(cap.counted).toHaveBeenCalledWith(ws.id);
    expect(devices.distinctDevices).not.toHaveBeenCalled();

    await service.changePlan(principal(ws.id, 'owner'), ws.id, 'team');
    expect(await service.usage(viewer, ws.id)).toMatchObject({
      distinct_devices: 4321,
      device_cap: null,
      member_cap: null,
    });
  });
});
