import type { Queryable } from '../platform/postgres.js';
import { referencedFiles } from './expo.manifest.js';
import type { ExpoRouteRow } from './expo.route.js';

/** The parts a release may be served with (sql/postgres/012_release_manifests.sql). */
export const MANIFEST_PARTS = ['check', 'ios', 'android', 'directive'] as const;
export type ManifestPart = (typeof MANIFEST_PARTS)[number];

/** The release a part belongs to, and its app. */
export interface ReleaseOfApp {
  id: string;
  app_id: string;
}

export interface StoredPart {
  part: ManifestPart;
  body: Buffer;
  signature: string | null;
  keyId: string | null;
}

/** The update embedded in the binaries a push targets, per platform (sql/postgres/032). */
export interface EmbeddedUpdate {
  platform: 'ios' | 'android';
  /** The embedded update's id (the binary's app.manifest `id`), lower case. */
  update_id: string;
  /** Its launch asset: hex sha256 of an upload of the app. */
  launch_asset: string;
}

export interface DraftRow {
  id: string;
  workspace_id: string;
  app_id: string;
  key_id: string;
  /** The push to make once signed (PushInput of the releases service, plus what the kind needs). */
  push: Record<string, unknown>;
  /** part -> base64 of the exact bytes to sign. */
  parts: Partial<Record<ManifestPart, string>>;
  created_at: Date;
  expires_at: Date;
}

/** A release's served parts (with their signatures) and the drafts of signed pushes waiting for them. */
export interface ManifestsStore {
  /**
   * Inside the transaction that inserts the release. The files its Expo manifests name (ios and android
   * parts) are recorded for its app: the app's asset URLs serve only those.
   */
  insertParts(tx: Queryable, release: ReleaseOfApp, parts: readonly StoredPart[]): Promise<void>;
  /** Inside the transaction that inserts the release: the embedded updates its push recorded. */
  insertEmbedded(tx: Queryable, releaseId: string, updates: readonly EmbeddedUpdate[]): Promise<void>;
  /** By part name. */
  parts(releaseId: string): Promise<StoredPart[]>;
  /**
   * The app's newest Expo releases (those with a directive part), one row per part, newest first: what the
   * routing cache holds of them.
   */
  expoRouteRows(appId: string): Promise<ExpoRouteRow[]>;
  /** Up to `limit` of the files (`<sha256>.<ext>`) the app's Expo releases name, for the routing cache. */
  expoAssetFiles(appId: string, limit: number): Promise<string[]>;
  /** Whether an Expo release of the app (of any app, when null: the old URLs without one) names the file. */
  expoAssetReferenced(appId: string | null, file: string): Promise<boolean>;
  /** Stores the draft, expiring `ttlSeconds` from now; drafts expired for a day are cleared in passing. */
  insertDraft(tx: Queryable, draft: Omit<DraftRow, 'expires_at'>, ttlSeconds: number): Promise<DraftRow>;
  /** A draft of the workspace that has not expired, or undefined. */
  findDraft(workspaceId: string, id: string): Promise<DraftRow | undefined>;
  /** Removes the draft as it becomes a release; false when it was taken (or expired) meanwhile. */
  takeDraft(tx: Queryable, workspaceId: string, id: string): Promise<boolean>;
}

/** The files the Expo manifests among `parts` name, each once. */
export function expoAssetFilesOf(parts: readonly StoredPart[]): string[] {
  const files = new Set<string>();
  for (const p of parts) {
    if (p.part === 'ios' || p.part === 'android') for (const f of referencedFiles(p.body)) files.add(f);
  }
  return [...files];
}
