import { describe, expect, it } from 'vitest';
import type { DeviceCapGate } from '../../../src/devices/device-cap.js';
import type { CheckRecord } from '../../../src/intake/check-recorder.js';
import type { RoutingCache } from '../../../src/routing/routing.cache.js';
import type { RoutingInvalidationListener } from '../../../src/routing/routing.listener.js';
import type { AppRoute } from '../../../src/routing/routing.types.js';
import { UpdateCheckService } from '../../../src/updates/updates.service.js';

const APP = '0b6f3d1e-5c1a-4f7e-9a1b-2c3d4e5f6a7b';

const route: AppRoute = {
  appId: APP,
  workspaceId: 'ws-1',
  plan: 'team',
  channels: new Map(),
  modules: new Set(),
  answers: new Map(),
};

/** The check service on stand-ins: the routing state is cached or must be loaded; the gate admits. */
function service(cached: boolean) {
  const recorded: CheckRecord[] = [];
  const routing = {
    peek: () => (cached ? route : undefined),
    load: async () => route,
  } as unknown as RoutingCache;
  return {
    recorded,
    updates: new UpdateCheckService({
      routing,
      listener: {} as RoutingInvalidationListener,
      gate: { admit: () => 'admitted' } as unknown as DeviceCapGate,
      devices: { add: () => {}, start: () => {}, stop: async () => {} },
      recorder: { record: (check) => recorded.push(check) },
    }),
  };
}

const client = { ip: '203.0.113.7' };

describe('the update check from memory', () => {
  it('answers at once, without a promise, when the app is cached and the device admitted', () => {
    const { updates, recorded } = service(true);
    const outcome = updates.resolve({ app_id: APP, device_id: 'device-1', client });
    expect(outcome).not.toBeInstanceOf(Promise);
    expect(outcome).toMatchObject({ release: null, admitted: true });
    expect(recorded).toHaveLength(1);
  });

  it('answers with a promise when the app must be loaded first', async () => {
    const { updates } = service(false);
    const outcome = updates.resolve({ app_id: APP, device_id: 'device-1', client });
    expect(outcome).toBeInstanceOf(Promise);
    await expect(outcome).resolves.toMatchObject({ release: null, admitted: true });
  });
});

describe('the check handed to the recorder', () => {
  it('records the app of the route, however the device spelled its id', () => {
    const { updates, recorded } = service(true);
    updates.resolve({ app_id: APP.toUpperCase(), device_id: 'device-1', client });
    expect(recorded.map((r) => r.appId)).toEqual([APP]);
  });

  it('records the native version the check read, so binary ranges can count eligible devices', () => {
    const { updates, recorded } = service(true);
    updates.resolve({ app_id: APP, device_id: 'device-1', client, app_version: '2.1.0' });
    updates.resolve({ app_id: APP, device_id: 'device-2', client });
    expect(recorded.map((r) => r.appVersion)).toEqual(['2.1.0', undefined]);
  });
});
