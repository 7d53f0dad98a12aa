import type { ApiKeyRef } from '../access/principal.js';
import type { Queryable } from '../platform/postgres.js';
import type { CapacitorPush } from './capacitor.rules.js';
import type { ReleaseStats } from './release-stats.js';
import type { ReleaseRow } from './releases.store.js';

export interface PushInput {
  app_id: string;
  version: string;
  sha256: string;
  channel?: string;
  rollout_pct?: number;
  mandatory?: boolean;
  notes?: string;
  fingerprint?: string | null;
  target_binary_range?: string | null;
  /** What a Capacitor device receives besides the bytes: its checksum, and when encrypted the session key. */
  capacitor?: CapacitorPush | null;
  /** A promotion (src/promotion/): the release copied and its channel, recorded with the new release. */
  promoted_from?: PromotedFrom;
  /** Fixed in advance by a signed push: both are inside the bytes signed for the release. */
  id?: string;
  created_at?: Date;
}

/** Where a promoted release came from: `promoted_from` of the release object, audit entry and webhook. */
export interface PromotedFrom {
  module_id: string;
  channel: string;
}

/** Steps a push of another kind (signed, Expo) adds inside the push's transaction, under the app lock. */
export interface PushHooks {
  /** Before the release row is written: refusals here write nothing. */
  beforeInsert?: (tx: Queryable) => Promise<void>;
  /** After the release row is written, before its audit entry and webhook. */
  afterInsert?: (tx: Queryable, release: ReleaseRow) => Promise<void>;
}

export type ReleaseWithStats = ReleaseRow & { stats: ReleaseStats };

/**
 * Who makes a change: the workspace it is made in and the audit actor (a user's e-mail, `api-key`, or
 * `system` for what the service does by itself, such as an error-spike action).
 */
export interface ChangeActor {
  workspaceId: string;
  actor: string;
  /** The API key that made the change, when one did. */
  apiKey?: ApiKeyRef;
}

export interface ReleasePage {
  modules: ReleaseWithStats[];
  /** When the statistics were read: they count the device events stored by then. */
  stats_as_of: Date;
  limit: number;
  offset: number;
  next_offset: number | null;
}
