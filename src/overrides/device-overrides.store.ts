import type { Queryable } from '../platform/postgres.js';

/** A device pinned to a channel, or to a release (`release_id`); exactly one of the two is set. */
export interface DeviceOverrideRow {
  app_id: string;
  device_id: string;
  channel: string | null;
  release_id: string | null;
  created_at: Date;
}

/** What a PUT sets: a channel or a release. */
export type OverrideTarget = { channel: string } | { releaseId: string };

/**
 * Device overrides of apps (sql/postgres/040_release_workflows.sql), written only by the device-overrides
 * service under the app's row lock, so the count per app is exact.
 */
export interface DeviceOverridesStore {
  /** Inserts or replaces the device's override; `created_at` is the time of this write. */
  put(
    tx: Queryable,
    workspaceId: string,
    appId: string,
    deviceId: string,
    target: OverrideTarget,
  ): Promise<DeviceOverrideRow>;
  /** The app's overrides, newest first. */
  list(appId: string): Promise<DeviceOverrideRow[]>;
  find(appId: string, deviceId: string, q?: Queryable): Promise<DeviceOverrideRow | undefined>;
  count(q: Queryable, appId: string): Promise<number>;
  /** True when the device had an override (now gone). */
  delete(tx: Queryable, appId: string, deviceId: string): Promise<boolean>;
}
