import type { CapacitorChannelsStore } from './capacitor-channels.store.js';

/** Stored Capacitor channels in memory. */
export class FakeCapacitorChannelsStore implements CapacitorChannelsStore {
  readonly rows = new Map<string, string>();

  async get(appId: string, deviceId: string): Promise<string | undefined> {
    return this.rows.get(`${appId} ${deviceId}`);
  }

  async set(appId: string, deviceId: string, channel: string): Promise<void> {
    this.rows.set(`${appId} ${deviceId}`, channel);
  }

  async clear(appId: string, deviceId: string): Promise<void> {
    this.rows.delete(`${appId} ${deviceId}`);
  }
}
