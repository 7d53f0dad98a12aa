import { DEFAULT_CHANNEL } from '@ota/shared/ids';
import type { AppRoute, RoutedRelease } from '../routing/routing.types.js';
import { fitsShell } from '../updates/resolve.js';

/**
 * How a check applies a device override (API.md, "Release workflows"), for every protocol alike. Pure
 * functions of the app's routing-cache entry: a device without an override costs one map lookup, and an
 * app without overrides none.
 */

/** Why a pinned release was not served to the device that checked. */
export const OVERRIDE_REASONS = [
  'release_unavailable',
  'fingerprint_mismatch',
  'binary_range_mismatch',
] as const;
export type OverrideReason = (typeof OVERRIDE_REASONS)[number];

/**
 * The channel a device is served from: its override's channel, else the one it asks for; the default
 * channel instead of a deleted one (a tester's build of a closed pull request's preview runs on).
 */
export function servedChannel(route: AppRoute, deviceId: string | undefined, asked: string): string {
  const override = deviceId === undefined ? undefined : route.overrides?.get(deviceId);
  const channel = override?.kind === 'channel' ? override.channel : asked;
  return route.deletedChannels?.has(channel) ? DEFAULT_CHANNEL : channel;
}

/** The module id a device is pinned to, when it has a release override. */
export function pinnedModule(route: AppRoute, deviceId: string | undefined): string | undefined {
  if (deviceId === undefined || route.overrides === undefined) return undefined;
  const override = route.overrides.get(deviceId);
  return override?.kind === 'release' ? override.moduleId : undefined;
}

/** What a pinned release means for one check: served, or not and why. */
export type PinOutcome = { served: RoutedRelease } | { served: null; reason: OverrideReason };

/**
 * A pinned release is served whatever its bucket, rollout or pause, but only to a device that can run it:
 * its fingerprint (Expo: runtime version) and binary range still apply. `release` is null when it cannot be
 * served at all (rolled back, or not a release this protocol serves).
 */
export function pinOutcome(
  release: RoutedRelease | null,
  fingerprint: string | undefined,
  appVersion: string | undefined,
): PinOutcome {
  if (release === null) return { served: null, reason: 'release_unavailable' };
  if (release.fingerprint !== null && release.fingerprint !== fingerprint)
    return { served: null, reason: 'fingerprint_mismatch' };
  if (!fitsShell(release, fingerprint, appVersion)) return { served: null, reason: 'binary_range_mismatch' };
  return { served: release };
}
