/**
 * The channels Capacitor devices asked for through `channel_self` (API.md, "Capacitor"): kept only for
 * plugins below 5.34.0, 6.34.0 and 7.34.0, which rely on the server to remember setChannel()
 * (plugin-versions.ts `channel: 'server'`), and read only by their update checks. Device-made rows, so they
 * are bounded: at most `perApp` per app, new ones counted per client network and hour, each forgotten
 * `DEVICE_WINDOW_DAYS` after the device last set or used it.
 */
export interface CapacitorChannelsStore {
  /** The channel the device asked for, undefined when it has none (or it lapsed). */
  get(app: AppRef, deviceId: string): Promise<string | undefined>;
  /** Stores the device's channel, replacing any earlier one; or why it was not stored. */
  set(app: AppRef, deviceId: string, channel: string, client: string): Promise<AssignmentOutcome>;
  /** Forgets the device's channel; nothing to forget is not an error. */
  clear(app: AppRef, deviceId: string): Promise<void>;
}

export interface AppRef {
  appId: string;
  workspaceId: string;
}

/**
 * `stored`, or refused: `app_full` (the app holds `perApp` assignments of devices seen within the window)
 * or `address_limit` (the client network stored its hourly number of new ones).
 */
export type AssignmentOutcome = 'stored' | 'app_full' | 'address_limit';

export interface AssignmentBounds {
  /** Most assignments one app keeps (CAPACITOR_CHANNEL_ASSIGNMENTS_PER_APP). */
  perApp: number;
  /** New assignments one client network may add per clock hour (…_PER_ADDRESS_PER_HOUR); 0: no limit. */
  perAddressPerHour: number;
  /** DEVICE_WINDOW_DAYS. */
  windowDays: number;
}
