import type { ReleaseRow } from '../releases/releases.store.js';

/** An app as routing needs it: its workspace and that workspace's plan (checked by the loader). */
export interface RoutingAppRow {
  workspace_id: string;
  plan: string;
}

/** The release columns an update check serves. */
export const ROUTED_COLUMNS = [
  'id',
  'channel',
  'version',
  'rollout_pct',
  'mandatory',
  'notes',
  'sha256',
  'size',
  'fingerprint',
  'target_binary_range',
  'paused',
  'capacitor_checksum',
  'capacitor_session_key',
  'capacitor_key_id',
  'crc32',
] as const;

/** An active release update checks serve, with the signed manifest of its `check` part when signed. */
export type RoutingReleaseRow = Pick<ReleaseRow, (typeof ROUTED_COLUMNS)[number]> & {
  signed_manifest: Buffer | null;
  signature: string | null;
  key_id: string | null;
};

/**
 * The reads behind an app's routing state, made only on a routing-cache miss. Read-only: the rows belong
 * to the apps, releases, manifests and deployment-keys stores. `appId` is a canonical UUID (the loader
 * answers other strings itself).
 */
export interface RoutingStore {
  /**
   * The app and its active releases on every channel, newest first, without the Expo releases (those
   * with a `directive` part: the Expo adapter serves them); undefined when there is no such app.
   */
  app(appId: string): Promise<{ app: RoutingAppRow; releases: RoutingReleaseRow[] } | undefined>;
  /** The app's CodePush deployment keys and the channel each names. */
  deploymentKeys(appId: string): Promise<Array<{ key: string; channel: string }>>;
  /** Ids of the app's newest `limit` releases on any channel, active or not. */
  moduleIds(appId: string, limit: number): Promise<string[]>;
  /** The app's device overrides (at most 1,000: the device-overrides service keeps them bounded). */
  deviceOverrides(appId: string): Promise<RoutingOverrideRow[]>;
  /** The app's channels other than production that allow device self-assignment. */
  selfAssignableChannels(appId: string): Promise<string[]>;
  /**
   * The app's deleted channels, most recently deleted first, at most `limit`: names whose every release
   * was withdrawn by a channel deletion. A push onto one makes it a channel again (its new release is not
   * withdrawn), so it is no longer listed.
   */
  deletedChannels(appId: string, limit: number): Promise<string[]>;
}

/** A device override as routing reads it: a channel, or a release id. */
export interface RoutingOverrideRow {
  device_id: string;
  channel: string | null;
  release_id: string | null;
}
