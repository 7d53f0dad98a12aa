import { atLeast, Count, type EnvOf, int } from './env.js';

/** The variables of what is kept per device: the counting window, the routing cache, Capacitor channels. */
export const DEVICE_ENV = {
  DEVICE_WINDOW_DAYS: Count('30'),
  ROUTING_CACHE_TTL_MS: Count('30000'),
  CAPACITOR_CHANNEL_ASSIGNMENTS_PER_APP: Count('10000'),
  CAPACITOR_CHANNEL_ASSIGNMENTS_PER_ADDRESS_PER_HOUR: Count('100'),
};

export interface DeviceSettings {
  windowDays: number;
  routingCacheTtlMs: number;
  /** Capacitor channel assignments kept per app, and new ones per client network and hour (0: no limit). */
  capacitorAssignmentsPerApp: number;
  capacitorAssignmentsPerAddressPerHour: number;
}

export function deviceSettings(e: EnvOf<typeof DEVICE_ENV>): DeviceSettings {
  return {
    windowDays: atLeast(1, e.DEVICE_WINDOW_DAYS),
    routingCacheTtlMs: int(e.ROUTING_CACHE_TTL_MS),
    capacitorAssignmentsPerApp: atLeast(1, e.CAPACITOR_CHANNEL_ASSIGNMENTS_PER_APP),
    capacitorAssignmentsPerAddressPerHour: int(e.CAPACITOR_CHANNEL_ASSIGNMENTS_PER_ADDRESS_PER_HOUR),
  };
}
