import type { Queryable } from '../platform/postgres.js';

export interface AppRow {
  id: string;
  workspace_id: string;
  name: string;
  created_at: Date;
}

export interface FingerprintRow {
  fingerprint: string;
  created_at: Date;
}

/** Apps and their native-shell fingerprints. Every lookup is scoped to a workspace. */
export interface AppsStore {
  /** Undefined when the workspace already has an app of that name (names are unique per workspace). */
  insert(tx: Queryable, workspaceId: string, name: string): Promise<AppRow | undefined>;
  /** The workspace's apps, newest first. */
  list(workspaceId: string): Promise<AppRow[]>;
  find(workspaceId: string, appId: string, q?: Queryable): Promise<AppRow | undefined>;
  /**
   * Reads the app and holds it until the transaction ends, so changes to one app's releases happen one
   * after another (a rollback never races a push on the same app).
   */
  lock(tx: Queryable, workspaceId: string, appId: string): Promise<AppRow | undefined>;
  /** production first, then every other channel that has releases, by name. */
  channels(appId: string): Promise<string[]>;
  /** Oldest first. */
  fingerprints(appId: string): Promise<FingerprintRow[]>;
  findFingerprint(appId: string, fingerprint: string, q?: Queryable): Promise<FingerprintRow | undefined>;
  /** Undefined when the fingerprint was already registered for the app. */
  insertFingerprint(tx: Queryable, appId: string, fingerprint: string): Promise<FingerprintRow | undefined>;
}
