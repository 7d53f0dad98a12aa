import type { Queryable } from '../platform/postgres.js';
import type { HistoryRow } from './release-history.js';

export interface DeploymentKeyRow {
  key: string;
  app_id: string;
  channel: string;
  created_at: Date;
}

/** CodePush deployment keys (app + channel), and the reads the acquisition adapter makes on a cache miss. */
export interface DeploymentKeysStore {
  insert(tx: Queryable, key: string, appId: string, channel: string): Promise<DeploymentKeyRow>;
  countForApp(q: Queryable, appId: string): Promise<number>;
  /** Oldest first, so a list reads in the order the keys were made. */
  list(appId: string): Promise<DeploymentKeyRow[]>;
  /** True when the app had the key (and it is now gone). */
  delete(tx: Queryable, appId: string, key: string): Promise<boolean>;
  /** The app a key belongs to, or null when no such key exists (any more). */
  appOf(key: string): Promise<string | null>;
  /**
   * Every bundle release of one app's channel, rolled back ones included (the CodePush adapter's history).
   * Expo releases (those with a directive part) are not CodePush's: their labels and mandatory flags stay out.
   */
  releaseHistory(appId: string, channel: string): Promise<HistoryRow[]>;
}
