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
}
