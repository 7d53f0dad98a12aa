import { describe, expect, it, vi } from 'vitest';
import { RedisCapacitorChannelsStore } from '../../../src/capacitor/capacitor-channels.redis-store.js';
import { CapacitorDevice } from '../../helpers/capacitor-device.js';
import { fileContext } from '../../helpers/context.js';
import { setPlan, workspaceWithApp } from '../releases/fixtures.js';
import { capacitorRelease, check, control, send } from './harness.js';

/**
 * Capacitor channel assignments are device-made state (API.md "Capacitor"; issue "device-made rows
 * bounded"): stored only for a device the device cap admits, counted per client address and hour, at
 * most CAPACITOR_CHANNEL_ASSIGNMENTS_PER_APP per app, lapsing after DEVICE_WINDOW_DAYS, and read by the
 * update check from Redis, never Postgres.
 */
const ctx = fileContext({
  env: {
    RATE_LIMIT_NEW_DEVICES_PER_ADDRESS_PER_HOUR: '3',
    CAPACITOR_CHANNEL_ASSIGNMENTS_PER_ADDRESS_PER_HOUR: '2',
    CAPACITOR_CHANNEL_ASSIGNMENTS_PER_APP: '4',
  },
});

const DAY = 86_400_000;

describe('Capacitor channel assignments', () => {
  it('are stored for admitted devices within the per-address and per-app bounds, read without Postgres', async () => {
    const ws = await workspaceWithApp(ctx);
    await setPlan(ctx, ws.workspaceId, 'pro');
    const prod = await capacitorRelease(ctx, ws, '1.0.0');
    const beta = await capacitorRelease(ctx, ws, '1.1.0-beta', { extra: { channel: 'beta' } });
    await control(ctx, ws, 'PATCH', `/apps/${ws.appId}/channels/beta`, { allow_device_self_assign: true });
    const devices = Array.from(
      { length: 7 },
      () => new CapacitorDevice({ deviceId: crypto.randomUUID(), generation: '7.33.4' }),
    );
    const setChannel = async (d: CapacitorDevice, address: string) =>
      (
        await send(ctx, ws.appId, 'channel_self', d.channelRequest('POST', 'beta').body, 'POST', address)
      ).json();

    const a = '198.51.100.7';
    expect(await setChannel(devices[0]!, a)).toEqual({ status: 'ok', allowSet: true });
    expect(await setChannel(devices[1]!, a)).toEqual({ status: 'ok', allowSet: true });
    // A device already holding one sets it again freely; a third new one from that address is refused.
    expect(await setChannel(devices[0]!, a)).toEqual({ status: 'ok', allowSet: true });
    expect(await setChannel(devices[2]!, a)).toMatchObject({ error: 'address_limit' });
    // The fourth new device of the address is refused by the device cap's new-device limit: nothing stored.
    expect(await setChannel(devices[3]!, a)).toMatchObject({ error: 'new_device_limit' });
    // Other addresses fill the app's bound of 4; the fifth device is refused.
    expect(await setChannel(devices[4]!, '198.51.100.8')).toEqual({ status: 'ok', allowSet: true });
    expect(await setChannel(devices[5]!, '198.51.100.9')).toEqual({ status: 'ok', allowSet: true });
    expect(await setChannel(devices[6]!, '198.51.100.10')).toMatchObject({ error: 'app_full' });

    // Checks of the stored devices are served beta, the refused ones production; no Postgres query is made.
    await check(ctx, ws.appId, devices[0]!);
    const query = vi.spyOn(ctx.deps.db, 'query');
    try {
      for (const [i, version] of [
        [0, beta.version],
        [1, beta.version],
        [2, prod.version],
        [4, beta.version],
        [6, prod.version],
      ] as const) {
        expect(await check(ctx, ws.appId, devices[i]!), `device ${i}`).toMatchObject({ version });
      }
      expect(query).not.toHaveBeenCalled();
    } finally {
      query.mockRestore();
    }
  });

  it('lapse DEVICE_WINDOW_DAYS after their last use, and are pruned as others are stored', async () => {
    let now = Date.UTC(2026, 0, 1);
    const store = new RedisCapacitorChannelsStore(
      ctx.deps.redis,
      ctx.deps.keys,
      { perApp: 2, perAddressPerHour: 0, windowDays: 30 },
      () => now,
    );
    const app = { appId: crypto.randomUUID(), workspaceId: crypto.randomUUID() };
    expect(await store.set(app, 'phone-a', 'beta', '192.0.2.1')).toBe('stored');
    expect(await store.set(app, 'phone-b', 'beta', '192.0.2.1')).toBe('stored');
    expect(await store.set(app, 'phone-c', 'beta', '192.0.2.1')).toBe('app_full');
    // phone-b keeps checking: its assignment is written again, phone-a's is not.
    now += 20 * DAY;
    expect(await store.get(app, 'phone-b')).toBe('beta');
    now += 15 * DAY;
    expect(await store.get(app, 'phone-a')).toBeUndefined();
    // phone-a has lapsed: storing phone-c prunes it, so the app's bound has room again.
    expect(await store.set(app, 'phone-c', 'qa', '192.0.2.1')).toBe('stored');
    expect(await store.count(app)).toBe(2);
    expect(await store.get(app, 'phone-b')).toBe('beta');
    expect(await store.get(app, 'phone-c')).toBe('qa');
    await store.clear(app, 'phone-c');
    expect(await store.get(app, 'phone-c')).toBeUndefined();
  });
});
