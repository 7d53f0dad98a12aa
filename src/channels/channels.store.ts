import type { Queryable } from '../platform/postgres.js';

/** A channel setting that was changed (production has none: it always allows self-assignment). */
export interface ChannelSettingRow {
  app_id: string;
  name: string;
  allow_device_self_assign: boolean;
  updated_at: Date;
}

/** Settings of an app's channels (app_channels), written only by the channels service. */
export interface ChannelsStore {
  /** The app's changed settings, by name. */
  list(appId: string, q?: Queryable): Promise<ChannelSettingRow[]>;
  set(tx: Queryable, appId: string, name: string, allowDeviceSelfAssign: boolean): Promise<ChannelSettingRow>;
  /**
   * Removes a channel: withdraws its releases (inactive, no longer making the channel exist), and drops its
   * setting, the devices pinned to it and its CodePush deployment keys.
   */
  remove(tx: Queryable, appId: string, name: string): Promise<RemovedChannel>;
}

/** What removing a channel took away. */
export interface RemovedChannel {
  releases: Array<{ id: string; version: string }>;
  devices: number;
  deployment_keys: number;
}
