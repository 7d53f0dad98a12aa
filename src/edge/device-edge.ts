import { AddressLimiter } from './address-limiter.js';
import { DeviceLimiter } from './device-limiter.js';

export interface DeviceEdgeOptions {
  /** Device requests one client address may make per minute (RATE_LIMIT_DEVICE_ADDRESS_PER_MINUTE). */
  addressPerMinute: number;
  /** Requests one device may make per minute to one endpoint (RATE_LIMIT_DEVICE_PER_MINUTE). */
  devicePerMinute: number;
  /** API copies the per-device allowance is divided among (API_COPIES). */
  copies: number;
}

/**
 * The device edge's limits of one API process, decided in memory (DESIGN.md "Limits in process first"):
 * one count per client address over every device endpoint, and per endpoint a token bucket per app and
 * device. Built once by the composition root; the device routes (src/http/device-route.ts) ask it.
 */
export class DeviceEdge {
  readonly addresses: AddressLimiter;
  private readonly perEndpoint = new Map<string, DeviceLimiter>();

  constructor(private readonly options: DeviceEdgeOptions) {
    this.addresses = new AddressLimiter({ max: options.addressPerMinute, windowMs: 60_000 });
  }

  /** Requests the per-device limits of every endpoint refused since the process started. */
  get refusedDevices(): number {
    let refused = 0;
    for (const limiter of this.perEndpoint.values()) refused += limiter.refused;
    return refused;
  }

  /** The per-device limiter of one endpoint (`GET /path`), made on first use; `perMinute` overrides. */
  devices(endpoint: string, perMinute = this.options.devicePerMinute): DeviceLimiter {
    let limiter = this.perEndpoint.get(endpoint);
    if (!limiter) {
      limiter = new DeviceLimiter({ perMinute, copies: this.options.copies });
      this.perEndpoint.set(endpoint, limiter);
    }
    return limiter;
  }
}
