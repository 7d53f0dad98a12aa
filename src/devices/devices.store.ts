import type { CountedDevice } from './device-cap.js';

/**
 * The devices counted against a workspace's device cap, as the devices service reads and releases them.
 * They live in Redis (a sorted set per workspace, by last check), not in Postgres: `DeviceCapGate`
 * (device-cap.ts) is the real store, since admission and counting are one script on that set.
 */
export interface CountedDevicesStore {
  /** Devices counted against the cap now: seen within the window. */
  counted(workspaceId: string): Promise<number>;
  /** A page of the counted devices, most recently seen first. */
  list(workspaceId: string, offset: number, limit: number): Promise<CountedDevice[]>;
  /** When a counted device last checked (epoch ms), or null when it is not counted. */
  lastSeen(workspaceId: string, deviceId: string): Promise<number | null>;
  /** Takes a device out of the workspace's set; true when it was there. */
  remove(workspaceId: string, deviceId: string): Promise<boolean>;
  /** Drops this process's memory of admitting the device, so its next check is decided again. */
  forget(workspaceId: string, deviceId: string): void;
}
