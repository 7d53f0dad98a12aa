import { CHANNEL_PATTERN, DEFAULT_CHANNEL } from '@ota/shared/ids';
import { allowsSelfAssign } from '../channels/channel-rules.js';
import type { AppRoute, RoutedRelease } from '../routing/routing.types.js';
import { checksumOf } from './capacitor-answers.js';
import { type PluginAbilities, pluginAbilities } from './plugin-versions.js';

/**
 * Pure rules of the Capacitor adapter (API.md, "Capacitor"; docs/reference/capacitor-protocol.md), functions
 * of the app's routing-cache entry and what the device sent, so a check costs no query.
 */

const CHANNEL = new RegExp(CHANNEL_PATTERN);

/** The channel a device asks for, before device overrides, and whether it is the device's own choice. */
export interface AskedChannel {
  channel: string;
  /** True when the device is served a channel it named itself (not the app's default one). */
  own: boolean;
}

/**
 * Which channel a Capacitor device asks for, before device overrides: the first of `wanted` that allows
 * self-assignment, else the app's default channel (empty, unknown and closed channels are skipped). The
 * caller orders them by where the plugin keeps its channel (plugin-versions.ts): a plugin that keeps it on
 * the device names it in `defaultChannel`; one below 5.34.0, 6.34.0 and 7.34.0 relies on the channel it
 * stored with `channel_self`, which comes before its configured `defaultChannel` (Capgo's server decides
 * the same way: plugin_runtime/utils/update.ts and channelSelfStore.ts).
 */
export function askedChannel(
  route: Pick<AppRoute, 'selfAssignable'>,
  ...wanted: ReadonlyArray<string | undefined>
): AskedChannel {
  for (const name of wanted) {
    if (name === undefined || name === '' || name === DEFAULT_CHANNEL) continue;
    if (allowsSelfAssign(route, name)) return { channel: name, own: true };
  }
  return { channel: DEFAULT_CHANNEL, own: false };
}

/** Whether `name` is a channel of the app: production, one with active releases, or one with settings. */
export function isKnownChannel(route: Pick<AppRoute, 'channels' | 'selfAssignable'>, name: string): boolean {
  if (!CHANNEL.test(name)) return false;
  return name === DEFAULT_CHANNEL || route.channels.has(name) || (route.selfAssignable?.has(name) ?? false);
}

/**
 * Whether a device that sends `keyId` (or none) can install the release (capacitor-protocol.md §5, "What each
 * device accepts"): a device with a public key only releases signed and encrypted with that key (its first
 * 20 characters; plugins 8.2 to 8.40 send 4, which every RSA-2048 key starts with), a device without one
 * only unsigned releases. So a device with a key never gets an unsigned checksum.
 */
export function fitsKey(release: RoutedRelease, keyId: string | undefined): boolean {
  const releaseKey = release.capacitor?.keyId ?? null;
  if (keyId === undefined || keyId === '') return releaseKey === null;
  if (releaseKey === null) return false;
  return keyId.length < releaseKey.length ? releaseKey.startsWith(keyId) : releaseKey === keyId;
}

/** What decides whether a device can install a release: the key it named and what its plugin verifies. */
export interface DeviceFit {
  keyId: string | undefined;
  plugin: PluginAbilities;
}

/**
 * Whether the device can verify and install the release: made with its key (fitsKey), and carrying a
 * checksum its plugin compares (a release without a CRC32 is not offered to a plugin that needs one).
 */
export function installable(release: RoutedRelease, fit: DeviceFit): boolean {
  if (!fitsKeyOf(release, fit)) return false;
  return checksumOf(release, fit.plugin.checksum) !== undefined;
}

/**
 * The key rule for the device. Plugins before 8.2 send no `key_id`, with a public key or without: with one,
 * iOS installs only a signed release and Android either kind (capacitor-protocol.md §5); so they are served
 * the channel's releases whatever key made them (as Capgo's server serves them), signed ones only from
 * 5.30/6.30/7.30, which read a hex signature. A developer adding a key to an app keeps the builds without
 * it on unsigned releases with `target_binary_range`.
 */
function fitsKeyOf(release: RoutedRelease, fit: DeviceFit): boolean {
  if ((fit.keyId === undefined || fit.keyId === '') && !fit.plugin.sendsKeyId)
    return release.capacitor?.keyId ? fit.plugin.readsHexSignature : true;
  return fitsKey(release, fit.keyId);
}

/** The releases of a list the device can install: the list itself when they all are (no copy). */
export function releasesFor(releases: readonly RoutedRelease[], fit: DeviceFit): readonly RoutedRelease[] {
  return releases.every((r) => installable(r, fit)) ? releases : releases.filter((r) => installable(r, fit));
}

/** Whether the plugin resets to its built-in bundle on `{version: "builtin"}` (plugin-versions.ts). */
export function resetsToBuiltin(pluginVersion: string | undefined): boolean {
  return pluginAbilities(pluginVersion, undefined).resetsToBuiltin;
}

/** Statistics actions counted (API.md, "Capacitor"), as the kind of device event each one is. */
export const COUNTED_ACTIONS: ReadonlyMap<string, 'download' | 'activation' | 'error'> = new Map([
  ['download_complete', 'download'],
  ['set', 'activation'],
  ['update_fail', 'error'],
  ['app_launch_timeout', 'error'],
  ['download_fail', 'error'],
  ['checksum_fail', 'error'],
  ['decrypt_fail', 'error'],
]);
