import type { RoutedRelease } from '../routing/routing.types.js';
import { admits, bucketOf } from './bucket.js';

/**
 * True when the release may run on the device's native shell: its fingerprint, and its binary range
 * against `appVersion` (normalised by normalizeAppVersion). A release with a range is never served to a
 * device that does not say which native version it runs.
 */
export function fitsShell(
  release: RoutedRelease,
  fingerprint: string | undefined,
  appVersion: string | undefined,
): boolean {
  if (release.fingerprint !== null && release.fingerprint !== fingerprint) return false;
  if (release.binaryRange === null) return true;
  return appVersion !== undefined && release.binaryRange.admits(appVersion);
}

/**
 * The release a device should run, or null. `releases` are the channel's active releases, newest first
 * (rolled-back releases are never in the list). The newest release that fits the device's native shell
 * (fingerprint, binary range) and whose bucket admits it wins; a release that does not admit the device
 * falls through to the next older one, so a staged rollout stacks on top of the release before it.
 *
 * A paused release is there only for the device that says it runs it (`current`, the module id it reports):
 * every other device resolves as if it did not exist, so a pause stops a release spreading without moving
 * anyone back. Every protocol resolves through here, each passing what its device says it runs.
 */
export function resolveRelease(
  releases: readonly RoutedRelease[],
  deviceId: string | undefined,
  fingerprint: string | undefined,
  appVersion?: string,
  current?: string | null,
): RoutedRelease | null {
  for (const release of releases) {
    if (release.paused && release.id !== current) continue;
    if (!fitsShell(release, fingerprint, appVersion)) continue;
    if (release.rolloutPct >= 100) return release;
    // A device without an id has no bucket: staged releases are not for it.
    if (deviceId !== undefined && admits(bucketOf(release.id, deviceId), release.rolloutPct)) return release;
  }
  return null;
}
