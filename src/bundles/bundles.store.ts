import type { Queryable } from '../platform/postgres.js';

export interface BundleRow {
  sha256: string;
  size: number;
}

/** What the retention sweep needs to know of a blob before deleting it. */
export interface BlobUsage {
  /** The latest upload of these bytes by any app; null when no app has an upload of them on record. */
  lastUploadAt: Date | null;
  /** A release, an Expo manifest (its assets) or a pending signed draft refers to the bytes. */
  referenced: boolean;
}

/** Which app uploaded which bytes; the bytes themselves live in the blob store. */
export interface BundlesStore {
  /** Records the upload, or refreshes its time when the app uploaded the same bytes before. */
  record(appId: string, sha256: string, size: number, q?: Queryable): Promise<void>;
  find(appId: string, sha256: string, q?: Queryable): Promise<BundleRow | undefined>;
  /**
   * Holds the blob's lock until the transaction ends: an upload's record, a push's check and the sweep's
   * deletion of the same bytes take turns, so a push never refers to bytes the sweep is deleting.
   */
  lockBlob(tx: Queryable, sha256: string): Promise<void>;
  usage(sha256: string, q?: Queryable): Promise<BlobUsage>;
  /** Forgets every app's upload of the bytes (the sweep deletes them). */
  forget(tx: Queryable, sha256: string): Promise<void>;
}
