import type { Queryable } from '../platform/postgres.js';

export interface BundleRow {
  sha256: string;
  size: number;
}

/** Which app uploaded which bytes; the bytes themselves live in the blob store. */
export interface BundlesStore {
  /** Records the upload; a repeated upload of the same bytes by the same app changes nothing. */
  record(appId: string, sha256: string, size: number): Promise<void>;
  find(appId: string, sha256: string, q?: Queryable): Promise<BundleRow | undefined>;
}
