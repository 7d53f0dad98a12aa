import type { RoutedRelease } from '../routing/routing.types.js';
import { fitsShell } from '../updates/resolve.js';
import type { UpdateInfo } from './codepush.schemas.js';

export interface UpdateInfoInput {
  /** The release to install; null when none is waiting for the device (or it already runs it). */
  served: RoutedRelease | null;
  /** The served release's package_hash (CodePush's folder hash of a zip); its sha256 when absent. */
  packageHash?: string;
  /** What the device downloads instead of the full release: a diff package from the release it runs. */
  download?: { url: string; size: number };
  /** The channel's active releases, newest first. */
  releases: readonly RoutedRelease[];
  /** True when the device would skip an active mandatory release on the way to the served one. */
  skipsMandatory?: boolean;
  /** The native version as the device sent it, and as read by normalizeAppVersion. */
  sentAppVersion: string;
  appVersion: string;
  /** False when the workspace's device cap refused the device. */
  admitted: boolean;
}

const NOTHING = { downloadUrl: '', packageHash: '', label: '', description: '', packageSize: 0 };

/**
 * The `update_info` of an update check, as react-native-code-push reads it.
 *
 * - An available update is mandatory when the served release is, or when the device would skip an active
 *   mandatory release on the way (see ChannelHistory.skipsMandatory), as CodePush did.
 * - An available update echoes the device's own app version as `app_version` and `target_binary_range`:
 *   the client stores that value with the package and, at the next start, discards a package whose version
 *   is not exactly the binary's (the CodePush service answered the same way for the same reason).
 * - Otherwise `target_binary_range` is the newest release's range (or `*`), `update_app_version` says that
 *   release targets a newer native version than the device's (the app should be updated from the store),
 *   and `should_run_binary_version` that no active release of the channel fits the device's version.
 */
export function updateInfoOf(input: UpdateInfoInput): UpdateInfo {
  const { served, releases, sentAppVersion, appVersion } = input;
  if (served !== null) {
    return {
      isAvailable: true,
      downloadUrl: input.download?.url ?? served.url,
      packageHash: input.packageHash ?? served.sha256,
      label: served.version,
      appVersion: sentAppVersion,
      targetBinaryRange: sentAppVersion,
      description: served.notes,
      isMandatory: served.mandatory || input.skipsMandatory === true,
      packageSize: input.download?.size ?? served.size,
      shouldRunBinaryVersion: false,
      updateAppVersion: false,
    };
  }
  const newest = releases[0];
  const range = newest?.binaryRange ?? null;
  const targetBinaryRange = range?.text ?? '*';
  const updateAppVersion =
    input.admitted && range !== null && !range.admits(appVersion) && !range.isBelow(appVersion);
  return {
    isAvailable: false,
    ...NOTHING,
    appVersion: updateAppVersion ? targetBinaryRange : sentAppVersion,
    targetBinaryRange,
    isMandatory: false,
    shouldRunBinaryVersion: input.admitted && !releases.some((r) => fitsShell(r, undefined, appVersion)),
    updateAppVersion,
  };
}
