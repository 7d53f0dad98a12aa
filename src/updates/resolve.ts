import type { RoutedRelease } from '../routing/routing.types.js';
import { admits, bucketOf } from './bucket.js';

/**
 * The release a device should run, or null. `releases` are the channel's active releases, newest first
 * (rolled-back releases are never in the list). The newest release whose fingerprint fits the device and
 * whose bucket admits it wins; a release that does not admit the device falls through to the next older
 * one, so a staged rollout stacks on top of the release before it.
 */
export function resolveRelease(
  releases: readonly RoutedRelease[],
  deviceId: string | undefined,
  fingerprint: string | undefined,
): RoutedRelease | null {
  for (const release of releases) {
    if (release.fingerprint !== null && release.fingerprint !== fingerprint) continue;
    if (release.rolloutPct >= 100) return release;
    // A device without an id has no bucket: staged releases are not for it.
    if (deviceId !== undefined && admits(bucketOf(release.id, deviceId), release.rolloutPct)) return release;
  }
  return null;
}
