import type { RefusalReason } from '@ota/shared/contracts';
import type { CapacitorManifestEntry } from '../deltas/capacitor-manifest.js';
import { memoAnswer } from '../routing/answer-memo.js';
import type { RoutedRelease } from '../routing/routing.types.js';
import type { ChecksumKind } from './plugin-versions.js';

/** A Capacitor update answer as bytes (the route sends them as they are). */
export type CapacitorAnswer = Buffer;

/**
 * `version: "builtin"` without an `error` or `kind` key: the plugin (6.2 and later) goes back to the bundle
 * built into the app; an answer with either key would be read as "not an update" (capacitor-protocol.md §4).
 */
export const RESET: CapacitorAnswer = Buffer.from('{"version":"builtin"}');

/**
 * "Not an update" answers: every one has `error`, `message` and a `kind` the plugin ends quietly on
 * (`up_to_date`, `blocked`), so none is reported back as a failed download of the running bundle.
 */
const NOT_AN_UPDATE: Record<'up_to_date' | RefusalReason, CapacitorAnswer> = {
  up_to_date: json({
    error: 'no_new_version_available',
    message: 'No new version available',
    kind: 'up_to_date',
  }),
  device_cap: json({
    error: 'device_cap',
    message: "The app's workspace serves no more devices on its plan",
    kind: 'blocked',
  }),
  new_device_limit: json({
    error: 'new_device_limit',
    message: 'Too many new devices from this network; try again later',
    kind: 'blocked',
  }),
};

export function notAnUpdate(reason: 'up_to_date' | RefusalReason): CapacitorAnswer {
  return NOT_AN_UPDATE[reason];
}

/**
 * `{version, url, checksum, session_key?, manifest?}`: the checksum the device's plugin verifies
 * (`checksumOf`), the session key of an encrypted release, and the per-file manifest for a device on an
 * earlier release. Never `error`, `kind` or `message`, and no JSON null. Without a manifest the bytes depend
 * on the release and the checksum kind only: made once per kind and kept with the release.
 */
export function updateAnswer(
  release: RoutedRelease,
  kind: ChecksumKind,
  manifest?: readonly CapacitorManifestEntry[],
): CapacitorAnswer {
  const make = () =>
    json({
      version: release.version,
      url: release.url,
      checksum: checksumOf(release, kind),
      ...(release.capacitor?.sessionKey ? { session_key: release.capacitor.sessionKey } : {}),
      ...(manifest ? { manifest } : {}),
    });
  return manifest ? make() : memoAnswer(release.answers, `capacitor:${kind}`, make);
}

/**
 * The `checksum` a plugin verifying `kind` compares: an encrypted release's signed checksum as pushed;
 * otherwise the zip's SHA-256, its CRC32, or "" for a plugin that computes none. undefined when the release
 * has no CRC32 (pushed before it was kept): the plugin could not verify it, so it is not offered.
 */
export function checksumOf(release: RoutedRelease, kind: ChecksumKind): string | undefined {
  if (release.capacitor?.sessionKey) return release.capacitor.checksum;
  if (kind === 'crc32') return release.crc32;
  if (kind === 'none') return '';
  return release.capacitor?.checksum ?? release.sha256;
}

function json(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
}
