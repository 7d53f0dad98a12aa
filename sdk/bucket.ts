import { sha256, utf8 } from './sha256.js';

/**
 * The rollout bucket of a device for a release, 0-99, computed exactly as the server does:
 * `uint32_be(sha256(module_id + ":" + device_id)[0..4]) % 100`. A device receives a release when
 * `bucket < rollout_pct`, so an app can tell locally whether a staged release will reach this device.
 */
export function bucket(moduleId: string, deviceId: string): number {
  const digest = sha256(utf8(`${moduleId}:${deviceId}`));
  const first = ((digest[0]! << 24) | (digest[1]! << 16) | (digest[2]! << 8) | digest[3]!) >>> 0;
  return first % 100;
}

/** Whether a release at `rolloutPct` reaches this device. */
export function inRollout(moduleId: string, deviceId: string, rolloutPct: number): boolean {
  return bucket(moduleId, deviceId) < rolloutPct;
}
