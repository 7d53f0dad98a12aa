import type { DeviceOffers } from '../devices/device-offers.js';
import type { AppRoute } from '../routing/routing.types.js';

/**
 * Which release a Capacitor statistic counts against (API.md, "Client versions"; capacitor-protocol.md § 11).
 *
 * Failures of a download (its transfer, checksum or decryption) are credited to the release the service last
 * offered the device, never to the version the statistic names: plugin 8 sends `download_fail` naming the
 * bundle it runs after a failed update check (from 8.51.5 also after a 429, once Retry-After has passed:
 * CapacitorUpdaterPlugin.java backgroundDownload -> endBackGroundTaskWithNotif) and after a failed
 * download, decryption or unzip (CapgoUpdater.java finishDownload, `sendStats("download_fail")`); Android's
 * `checksum_fail` names the running bundle (CapgoUpdater.java finishDownload), iOS's the update
 * (CapacitorUpdaterPlugin.swift), iOS's `decrypt_fail` the update (CapgoUpdater.swift). Tag 8.51.14.
 * `update_fail` and `app_launch_timeout` name the bundle that failed to start (checkRevert,
 * reportAppLaunchTimeout): the running release, as the statistic says.
 */
export const DOWNLOAD_SIDE_ACTIONS: ReadonlySet<string> = new Set([
  'download_fail',
  'checksum_fail',
  'decrypt_fail',
]);

/**
 * Whether a counted action can name its release: download-side failures count whatever they name (plugin
 * 5.4 sends no `version_name`, a device on its built-in bundle names `builtin`); the others only when they
 * name a release.
 */
export function creditable(stat: { action: string; version_name?: string }): boolean {
  if (DOWNLOAD_SIDE_ACTIONS.has(stat.action)) return true;
  return stat.version_name !== undefined && stat.version_name !== '' && stat.version_name !== 'builtin';
}

/**
 * The release a device's download-side failures count against: the one last offered it while the app still
 * knows it, else '' (no release: stored as an event, counted against none). Read once per batch, and only for
 * a batch that holds such a failure.
 */
export function offeredRelease(
  offers: Pick<DeviceOffers, 'offered'>,
  route: AppRoute,
  deviceId: string,
): () => Promise<string> {
  let read: Promise<string> | undefined;
  return () => {
    read ??= offers
      .offered(route.workspaceId, route.appId, deviceId)
      .then((id) => (id !== null && route.modules.has(id) ? id : ''));
    return read;
  };
}

/** The stored message of a failure: the action, and that no release was offered when none was. */
export function failureMessage(action: string, moduleId: string): string {
  return `capacitor-updater: ${action}${moduleId === '' ? ' (no release offered)' : ''}`;
}
