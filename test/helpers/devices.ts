import type { AvailableUpdate } from '../../client/types.js';
import { OtaUpdates } from '../../sdk/updates.js';
import { waitFor } from './wait.js';

export interface FleetDevice {
  id: string;
  sdk: OtaUpdates;
  /** The module this device runs after the last round. */
  current: string | undefined;
}

/** A fleet of SDK devices talking to a live server, for tests that need real device traffic. */
export function fleet(apiUrl: string, appId: string, size: number, prefix = 'device'): FleetDevice[] {
  return Array.from({ length: size }, (_, i) => {
    const id = `${prefix}-${i}`;
    return {
      id,
      current: undefined,
      sdk: new OtaUpdates({ apiUrl, appId, deviceId: id, events: { autoFlush: false } }),
    };
  });
}

/**
 * One update round: every device checks; those offered a release download it (verified), activate it,
 * and report. Returns who got what.
 */
export async function updateRound(devices: FleetDevice[]): Promise<Map<string, AvailableUpdate | null>> {
  const offered = new Map<string, AvailableUpdate | null>();
  for (const device of devices) {
    const update = await device.sdk.checkForUpdate(device.current);
    offered.set(device.id, update);
    if (!update) continue;
    await device.sdk.download(update);
    await device.sdk.reportActivation(update.module_id);
    device.current = update.module_id;
  }
  await flushAll(devices);
  return offered;
}

export async function flushAll(devices: FleetDevice[]): Promise<void> {
  for (const device of devices) {
    const result = await device.sdk.flush();
    if (result.pending > 0)
      throw new Error(`device ${device.id} could not send its events: ${String(result.error)}`);
  }
}

/** Polls `probe` until it returns a value (not undefined) or the deadline passes. */
export function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000) {
  return waitFor(what, probe, { timeoutMs, intervalMs: 250 });
}
