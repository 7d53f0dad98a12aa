/**
 * The channels Capacitor devices asked for through `channel_self` (sql/postgres/041), written only by the
 * Capacitor adapter. Read only for plugins that send no `defaultChannel` (before 5.5), which rely on the
 * server to keep their channel.
 */
export interface CapacitorChannelsStore {
  /** The channel the device asked for, undefined when it has none stored. */
  get(appId: string, deviceId: string): Promise<string | undefined>;
  /** Stores the device's channel, replacing any earlier one. */
  set(appId: string, deviceId: string, channel: string): Promise<void>;
  /** Forgets the device's channel; nothing to forget is not an error. */
  clear(appId: string, deviceId: string): Promise<void>;
}
