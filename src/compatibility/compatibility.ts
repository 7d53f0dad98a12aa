import type { LatestCheckGroup } from '../analytics/device-checks.js';
import { binaryRangeOf } from '../releases/binary-range.js';

/** What a release about to be pushed would ask of a device. */
export interface Requirements {
  channel: string;
  /** The native-shell fingerprint, or an Expo runtime version (stored as the release's fingerprint). */
  fingerprint?: string | undefined;
  target_binary_range?: string | undefined;
}

export interface Compatibility {
  /** Devices whose latest check in the window was on the channel. */
  devices_seen: number;
  /** Of those, the devices that could run the release. */
  compatible_devices: number;
}

/**
 * Counts the devices of a channel that could run a release: a binary range must admit the native version
 * the device's latest check sent (a device that sent none is never served a release with a range); a
 * fingerprint must be the fingerprint of the release the device runs. A device that runs the bundle of its
 * binary has no known fingerprint and is not counted for one: the gate errs towards refusing, and a
 * pipeline that ships the first update of a new binary leaves it off.
 */
export function compatibilityOf(
  groups: readonly LatestCheckGroup[],
  fingerprintOf: ReadonlyMap<string, string | null>,
  wanted: Requirements,
): Compatibility {
  const range = wanted.target_binary_range ? binaryRangeOf(wanted.target_binary_range) : null;
  let seen = 0;
  let compatible = 0;
  for (const g of groups) {
    if (g.channel !== wanted.channel) continue;
    seen += g.devices;
    if (range && (g.app_version === '' || !range.admits(g.app_version))) continue;
    if (
      wanted.fingerprint !== undefined &&
      (g.module_id === '' || fingerprintOf.get(g.module_id) !== wanted.fingerprint)
    )
      continue;
    compatible += g.devices;
  }
  return { devices_seen: seen, compatible_devices: compatible };
}
