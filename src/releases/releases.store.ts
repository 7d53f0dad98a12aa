import type { Queryable } from '../platform/postgres.js';

export interface ReleaseRow {
  id: string;
  seq: number;
  workspace_id: string;
  app_id: string;
  version: string;
  channel: string;
  rollout_pct: number;
  mandatory: boolean;
  notes: string;
  sha256: string;
  size: number;
  fingerprint: string | null;
  target_binary_range: string | null;
  active: boolean;
  rolled_back_at: Date | null;
  created_at: Date;
  /** What a Capacitor device receives besides the bytes (see CapacitorFields); all null otherwise. */
  capacitor_checksum: string | null;
  capacitor_session_key: string | null;
  capacitor_key_id: string | null;
  /** CRC32 of the bytes (8 lower-case hex), computed at push; null for releases pushed before it was kept. */
  crc32: string | null;
  /** Offered to no device that does not already run it (docs/guides/apps-and-releases.md). */
  paused: boolean;
  /** The release this one was promoted from, and the channel it was on; null for a push of its own. */
  promoted_from: string | null;
  promoted_from_channel: string | null;
}

/**
 * A Capacitor release's checksum as the plugin must receive it, and for an encrypted release its session key
 * and the id of the key it was made with (docs/reference/capacitor-protocol.md).
 */
export interface CapacitorFields {
  checksum: string;
  sessionKey: string | null;
  keyId: string | null;
}

export interface NewRelease {
  workspaceId: string;
  appId: string;
  version: string;
  channel: string;
  rolloutPct: number;
  mandatory: boolean;
  notes: string;
  sha256: string;
  size: number;
  fingerprint: string | null;
  targetBinaryRange: string | null;
  capacitor?: CapacitorFields | null;
  /** CRC32 of the bytes (blob-crc32.ts). */
  crc32?: string | null;
  /** A promotion: the release whose bytes and metadata this one copies, and its channel. */
  promotedFrom?: { id: string; channel: string } | null;
  /** Given by a signed push, whose signed bytes name them; otherwise drawn by the store. */
  id?: string;
  createdAt?: Date;
}

/** How people name a release: its exact version, or (when it looks like one) a lower-case id prefix. */
export interface ReleaseNameRef {
  version: string;
  idPrefix: string | null;
}

/** What a lookup is narrowed to, when given. */
export interface ReleaseScope {
  appId?: string | undefined;
  channel?: string | undefined;
}

/**
 * Releases ("modules"), written only by the releases service. Order on a channel is `seq`: a later push
 * always has a larger one. Writes take the change's transaction; reads take it when they must see it.
 */
export interface ReleasesStore {
  insert(tx: Queryable, release: NewRelease): Promise<ReleaseRow>;
  /** A release of the workspace; another workspace's id is not found. */
  find(workspaceId: string, id: string, q?: Queryable): Promise<ReleaseRow | undefined>;
  /** The releases of the workspace with these ids (in no particular order); others are left out. */
  findMany(workspaceId: string, ids: readonly string[]): Promise<ReleaseRow[]>;
  /** The newest release of the app and channel with exactly this version, active or not. */
  findVersion(
    appId: string,
    channel: string,
    version: string,
    q?: Queryable,
  ): Promise<ReleaseRow | undefined>;
  /**
   * Releases of the workspace whose version is `ref.version` or whose id starts with `ref.idPrefix`, newest
   * first, at most `limit`; narrowed to an app and a channel when given.
   */
  lookup(workspaceId: string, ref: ReleaseNameRef, scope: ReleaseScope, limit: number): Promise<ReleaseRow[]>;
  /** Newest first; `limit + 1` rows, so the caller knows whether another page exists. */
  list(appId: string, channel: string | undefined, limit: number, offset: number): Promise<ReleaseRow[]>;
  setRollout(tx: Queryable, id: string, rolloutPct: number): Promise<ReleaseRow>;
  setPaused(tx: Queryable, id: string, paused: boolean): Promise<ReleaseRow>;
  /** The newest active release of the same app and channel pushed before `beforeSeq`. */
  previousActive(
    appId: string,
    channel: string,
    beforeSeq: number,
    q?: Queryable,
  ): Promise<ReleaseRow | undefined>;
  /** Marks the release rolled back (inactive, with the time). */
  deactivate(tx: Queryable, id: string): Promise<ReleaseRow>;
}
