import { atLeast, Count, type EnvOf, int } from './env.js';

/** The variables of the per-address, per-device and sign-in limits. */
export const RATE_LIMIT_ENV = {
  RATE_LIMIT_SIGNIN_PER_MINUTE: Count('20'),
  RATE_LIMIT_DEVICE_PER_MINUTE: Count('600'),
  RATE_LIMIT_DEVICE_ADDRESS_PER_MINUTE: Count('6000'),
  RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT: Count('10'),
  RATE_LIMIT_SIGNIN_FAILURES_PER_NETWORK: Count('100'),
  RATE_LIMIT_SIGNIN_FAILURE_WINDOW_MINUTES: Count('15'),
  RATE_LIMIT_NEW_DEVICES_PER_ADDRESS_PER_HOUR: Count('0'),
  RATE_LIMIT_FAILURE_DEVICES_PER_ADDRESS_PER_HOUR: Count('10'),
  API_COPIES: Count('1'),
};

export interface RateLimitSettings {
  signinPerMinute: number;
  /** Device requests per app and device id; each API process allows its share (`apiCopies`). */
  devicePerMinute: number;
  /** API processes behind the balancer, among which `devicePerMinute` is divided. */
  apiCopies: number;
  /** Device requests per client address (an IPv6 /64), whatever ids they name; counted per API process. */
  deviceAddressPerMinute: number;
  /**
   * Failed sign-ins of one account (any e-mail asked for) from one client network within the window, after
   * which that network's sign-ins of it wait; 0 = no limit. Never per account alone: anyone could spend it.
   */
  signinFailuresPerAccount: number;
  /** Failed sign-ins from one client network within the window, whatever the accounts; 0 = no limit. */
  signinFailuresPerNetwork: number;
  signinFailureWindowMs: number;
  /** Devices new to a capped workspace that one client address may add per hour; 0 = no limit. */
  newDevicesPerAddressPerHour: number;
  /**
   * Distinct devices one client address (an IPv6 /64) may add to one release's failure counters per
   * clock hour, per API process: what an error spike and its automatic action are decided on.
   */
  failureDevicesPerAddressPerHour: number;
}

export function rateLimitSettings(e: EnvOf<typeof RATE_LIMIT_ENV>): RateLimitSettings {
  return {
    signinPerMinute: atLeast(1, e.RATE_LIMIT_SIGNIN_PER_MINUTE),
    devicePerMinute: atLeast(1, e.RATE_LIMIT_DEVICE_PER_MINUTE),
    apiCopies: atLeast(1, e.API_COPIES),
    deviceAddressPerMinute: atLeast(1, e.RATE_LIMIT_DEVICE_ADDRESS_PER_MINUTE),
    signinFailuresPerAccount: int(e.RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT),
    signinFailuresPerNetwork: int(e.RATE_LIMIT_SIGNIN_FAILURES_PER_NETWORK),
    signinFailureWindowMs: atLeast(1, e.RATE_LIMIT_SIGNIN_FAILURE_WINDOW_MINUTES) * 60_000,
    newDevicesPerAddressPerHour: int(e.RATE_LIMIT_NEW_DEVICES_PER_ADDRESS_PER_HOUR),
    failureDevicesPerAddressPerHour: atLeast(1, e.RATE_LIMIT_FAILURE_DEVICES_PER_ADDRESS_PER_HOUR),
  };
}
