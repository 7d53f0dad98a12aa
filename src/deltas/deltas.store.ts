import type { ExpoPlatform } from '../expo/expo.manifest.js';
import type { Queryable } from '../platform/postgres.js';

export const DELTA_KINDS = ['expo-bsdiff', 'codepush-diff', 'capacitor-files'] as const;
export type DeltaKind = (typeof DELTA_KINDS)[number];
/** Expo patches are per platform; CodePush and Capacitor downloads serve any. */
export type DeltaPlatform = ExpoPlatform | 'any';

/** A release as the deltas worker reads it. */
export interface DeltaRelease {
  id: string;
  app_id: string;
  channel: string;
  seq: number;
  sha256: string;
  size: number;
  fingerprint: string | null;
  /** An Expo release's launch asset per platform (hex SHA-256, from its stored manifests). */
  launch_assets: Partial<Record<ExpoPlatform, string>>;
}

/** An update embedded in app binaries, recorded by a push (expo_embedded_updates): a patch base. */
export interface EmbeddedBase {
  platform: ExpoPlatform;
  update_id: string;
  /** Its launch asset's hex sha256. */
  launch_asset: string;
}

/** What the worker learnt of a release's bytes (release_packages). */
export interface PackageRow {
  release_id: string;
  is_zip: boolean;
  /** CodePush's folder hash of a zip; null otherwise. */
  folder_hash: string | null;
  file_count: number;
}

export interface DeltaRow {
  target_release_id: string;
  kind: DeltaKind;
  platform: DeltaPlatform;
  /** The id the device names its base by: the base release's, or an embedded update's. */
  base_update_id: string;
  /** The base release; null for an embedded update. */
  base_release_id: string | null;
  blob_sha256: string;
  /** Bytes a device on the base downloads. */
  size: number;
  /** Bytes it would download without the delta. */
  full_size: number;
}

/**
 * Releases of an app whose deltas the routing cache holds: the newest, which are the ones devices are
 * offered (an older release's deltas only help a device offered that older release).
 */
export const SERVED_DELTA_RELEASES = 500;

/** A release as the device routes name it, with CodePush's folder hash once the worker has read a zip. */
export interface ServedRelease {
  sha256: string;
  version: string;
  folder_hash: string | null;
}

/** What the device routes serve of an app's newest releases (held with its routing-cache entry). */
export interface ServedDeltas {
  /** Release id -> how devices name it. */
  releases: Map<string, ServedRelease>;
  deltas: DeltaRow[];
}

/**
 * Reads of releases for the deltas worker, and the tables it writes (sql/postgres/030): each release's
 * package facts (first recorded by the push, src/deltas/package-facts.ts) and its deltas. Writes are idempotent: a job run again writes the same rows.
 * The device routes read what they serve with `served`, on a routing-cache miss only.
 */
export interface DeltasStore {
  release(id: string): Promise<DeltaRelease | undefined>;
  /** Releases of the app and channel pushed before `beforeSeq`, newest first, at most `limit`. */
  earlier(appId: string, channel: string, beforeSeq: number, limit: number): Promise<DeltaRelease[]>;
  /**
   * The embedded updates recorded by pushes of the app with this runtime version (fingerprint) up to and
   * including `uptoSeq`, each (platform, update) once, the most recently recorded first, at most `limit`
   * per platform.
   */
  embeddedBases(appId: string, fingerprint: string, uptoSeq: number, limit: number): Promise<EmbeddedBase[]>;
  /** Inserts or replaces the release's row (in the push's transaction when `q` is given). */
  recordPackage(row: PackageRow, q?: Queryable): Promise<void>;
  package(releaseId: string): Promise<PackageRow | undefined>;
  /** Records the blobs a Capacitor manifest blob names (kept by blob retention); again is a no-op. */
  recordManifestFiles(manifestSha256: string, fileSha256s: readonly string[]): Promise<void>;
  /** Inserts or replaces the row of (target, kind, platform, base_update_id). */
  recordDelta(row: DeltaRow): Promise<void>;
  /** The target's deltas, by kind, platform and base. */
  deltasOf(targetReleaseId: string): Promise<DeltaRow[]>;
  /** The app's newest `limit` releases (any channel) with their folder hashes, and their deltas. */
  served(appId: string, limit: number): Promise<ServedDeltas>;
}
