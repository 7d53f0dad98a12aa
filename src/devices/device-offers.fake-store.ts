import type { DeviceOffers } from './device-offers.js';

/** DeviceOffers in memory, for unit tests: an answer that offered nothing forgets the device. */
export class FakeDeviceOffers implements DeviceOffers {
  readonly offers = new Map<string, string>();

  note(workspaceId: string, appId: string, deviceId: string, releaseId: string | null): void {
    const key = `${workspaceId} ${appId} ${deviceId}`;
    if (releaseId === null) this.offers.delete(key);
    else this.offers.set(key, releaseId);
  }

  async offered(workspaceId: string, appId: string, deviceId: string): Promise<string | null> {
    return this.offers.get(`${workspaceId} ${appId} ${deviceId}`) ?? null;
  }
}
