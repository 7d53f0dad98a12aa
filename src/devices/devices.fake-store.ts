import type { CountedDevice } from './device-cap.js';
import type { CountedDevicesStore } from './devices.store.js';

const DAY_MS = 86_400_000;

/** Counted devices in memory, by workspace: device id to the time of its last check. */
export class FakeCountedDevicesStore implements CountedDevicesStore {
  readonly sets = new Map<string, Map<string, number>>();
  readonly forgotten: Array<[string, string]> = [];

  constructor(
    private readonly now: () => number = Date.now,
    private readonly windowDays = 30,
  ) {}

  /** A check of the device now (what an admitted update check records). */
  seen(workspaceId: string, deviceId: string, at = this.now()): void {
    const set = this.sets.get(workspaceId) ?? new Map<string, number>();
    set.set(deviceId, at);
    this.sets.set(workspaceId, set);
  }

  async counted(workspaceId: string): Promise<number> {
    return this.inWindow(workspaceId).length;
  }

  async list(workspaceId: string, offset: number, limit: number): Promise<CountedDevice[]> {
    return this.inWindow(workspaceId)
      .sort((a, b) => b.lastSeen - a.lastSeen || b.device_id.localeCompare(a.device_id))
      .slice(offset, offset + limit);
  }

  async lastSeen(workspaceId: string, deviceId: string): Promise<number | null> {
    return this.inWindow(workspaceId).find((d) => d.device_id === deviceId)?.lastSeen ?? null;
  }

  async remove(workspaceId: string, deviceId: string): Promise<boolean> {
    return this.sets.get(workspaceId)?.delete(deviceId) ?? false;
  }

  forget(workspaceId: string, deviceId: string): void {
    this.forgotten.push([workspaceId, deviceId]);
  }

  private inWindow(workspaceId: string): CountedDevice[] {
    const since = this.now() - this.windowDays * DAY_MS;
    return [...(this.sets.get(workspaceId) ?? [])]
      .filter(([, at]) => at >= since)
      .map(([device_id, lastSeen]) => ({ device_id, lastSeen }));
  }
}
