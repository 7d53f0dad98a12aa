import { DEFAULT_CHANNEL } from '@ota/shared/ids';
import type { AppRoute } from '../routing/routing.types.js';

/**
 * Which channels a device may move itself onto at run time (API.md, "Release workflows", "Channels"):
 * Capacitor's `channel_self` and its `defaultChannel`. Functions of the app's routing-cache entry, so a
 * device edge asks them without a query. The channel an app is built for (the update check's `channel`,
 * `expo-channel-name`, a deployment key) is not self-assignment and is served as it is.
 */

/** production always allows it; another channel only when its `allow_device_self_assign` is set. */
export function allowsSelfAssign(route: Pick<AppRoute, 'selfAssignable'>, channel: string): boolean {
  return channel === DEFAULT_CHANNEL || (route.selfAssignable?.has(channel) ?? false);
}

/**
 * The channel a device that names one for itself is served from: that channel when it allows
 * self-assignment, else `fallback` (the app's default channel for the device).
 */
export function selfAssignedChannel(
  route: Pick<AppRoute, 'selfAssignable'>,
  wanted: string | undefined,
  fallback: string,
): string {
  return wanted !== undefined && wanted !== '' && allowsSelfAssign(route, wanted) ? wanted : fallback;
}

/** The channels a device may join by itself: production first, then the others by name. */
export function selfAssignableChannels(route: Pick<AppRoute, 'selfAssignable'>): string[] {
  return [DEFAULT_CHANNEL, ...[...(route.selfAssignable ?? [])].sort()];
}
