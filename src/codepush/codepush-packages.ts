import type { ServedDeltas } from '../deltas/deltas.store.js';
import type { RoutedRelease } from '../routing/routing.types.js';

/** A CodePush diff package a device on its base downloads instead of the full release. */
export interface CodePushDiff {
  /** The diff's blob (content address). */
  sha256: string;
  size: number;
  /** Where devices download it: the store's URL (CDN or presigned) or the API's. */
  url: string;
}

/**
 * What the CodePush adapter serves of an app's packages (docs/reference/delta-updates.md, "CodePush"),
 * built once per routing-cache load so an update check stays a lookup: each zip release's folder hash
 * (its `package_hash`), and each release's diff packages by how a device names the base it runs.
 */
export interface CodePushPackages {
  /** Release id -> CodePush's folder hash, for the zip releases the deltas worker has read. */
  folderHashes: ReadonlyMap<string, string>;
  /**
   * Target release id -> device key -> diff. A device key is `hash:<hash>` for each hash the device may
   * hold for the base (its folder hash, and its sha256: answered before the folder hash was known), or
   * `label:<version>` for a device that sends no package hash.
   */
  diffs: ReadonlyMap<string, ReadonlyMap<string, CodePushDiff>>;
}

/** The link of a blob the device downloads, and until when it may be handed out (presigned URLs). */
export type DiffLink = (sha256: string) => Promise<{ url: string; handOutUntil?: number }>;

export async function codePushPackages(
  served: ServedDeltas,
  link: DiffLink,
): Promise<{ packages: CodePushPackages; handOutUntil?: number }> {
  const folderHashes = new Map<string, string>();
  for (const [id, r] of served.releases) if (r.folder_hash !== null) folderHashes.set(id, r.folder_hash);
  const diffs = new Map<string, Map<string, CodePushDiff>>();
  let handOutUntil = Number.POSITIVE_INFINITY;
  for (const d of served.deltas) {
    const base = d.base_release_id === null ? undefined : served.releases.get(d.base_release_id);
    if (d.kind !== 'codepush-diff' || !base) continue;
    const found = await link(d.blob_sha256);
    handOutUntil = Math.min(handOutUntil, found.handOutUntil ?? Number.POSITIVE_INFINITY);
    const diff: CodePushDiff = { sha256: d.blob_sha256, size: d.size, url: found.url };
    const byBase = diffs.get(d.target_release_id) ?? new Map<string, CodePushDiff>();
    byBase.set(`hash:${base.sha256}`, diff);
    if (base.folder_hash !== null) byBase.set(`hash:${base.folder_hash}`, diff);
    byBase.set(`label:${base.version}`, diff);
    diffs.set(d.target_release_id, byBase);
  }
  return {
    packages: { folderHashes, diffs },
    ...(Number.isFinite(handOutUntil) ? { handOutUntil } : {}),
  };
}

/** A release's `package_hash`: the folder hash of a zip release, else (a single-file bundle) its sha256. */
export function packageHashOf(packages: CodePushPackages | undefined, release: RoutedRelease): string {
  return packages?.folderHashes.get(release.id) ?? release.sha256;
}

/** True when the device's package hash names this release's bytes (either hash it may have been told). */
export function holdsRelease(
  packages: CodePushPackages | undefined,
  release: RoutedRelease,
  packageHash: string | undefined,
): boolean {
  if (packageHash === undefined) return false;
  const hash = packageHash.toLowerCase();
  return hash === release.sha256 || hash === packages?.folderHashes.get(release.id);
}

/**
 * The diff to offer a device for `release`, from the package it runs: named by its package hash, or by its
 * label when it sends no hash (a hash that names no base is another package: a diff laid over it would
 * fail the client's folder hash check, so it gets the full release).
 */
export function diffFor(
  packages: CodePushPackages | undefined,
  release: RoutedRelease,
  device: { packageHash?: string; label?: string },
): CodePushDiff | undefined {
  const byBase = packages?.diffs.get(release.id);
  if (!byBase) return undefined;
  if (device.packageHash !== undefined) return byBase.get(`hash:${device.packageHash.toLowerCase()}`);
  return device.label === undefined ? undefined : byBase.get(`label:${device.label}`);
}
