import type { FastifyContextConfig, FastifyInstance, RouteOptions } from 'fastify';
import type { AddressLimiter } from './address-limiter.js';
import { DeviceLimiter } from './device-limiter.js';
import { type DeviceRateLimit, deviceRateLimit } from './device-rate-limit.js';
import { sendProblem } from './error-handler.js';
import { decidedAddressLimit, decidedDeviceLimit } from './lane-handover.js';
import { addRouteHook, type CallbackHook } from './route-hooks.js';

/**
 * Route config of a device endpoint (no credential; the app id names the app): public, strings made safe
 * by replacement rather than refused (string-safety.ts), limited per client address and per app and device
 * (device-rate-limit.ts), both in process (below). Protocol adapters use it for their device routes.
 */
export function deviceRoute(devicePerMinute: number): FastifyContextConfig {
  return { public: true, device: true, strings: 'replace', deviceLimit: deviceRateLimit(devicePerMinute) };
}

export interface DeviceEdgeOptions {
  /** The per-address limit of device requests (one per process, shared with the fast lanes). */
  addresses: AddressLimiter;
  /** API copies the per-device allowance is divided among (API_COPIES). */
  copies?: number;
}

/** The in-process limits of the device routes: the per-device limiter of each route. */
export interface DeviceEdge {
  deviceLimiter(method: string, url: string): DeviceLimiter | undefined;
}

/**
 * Limits every device endpoint to its requests per client address (an IPv6 /64 counting as one),
 * whatever device id or app id the requests name, so rotating ids does not escape the per-device limit.
 * Checked when the request arrives, before its body is read. A route's `deviceLimit` (per app and device)
 * is checked once the body is validated, in a bucket of that route's own. A request a fast lane already
 * counted (fast-lane.ts) carries the verdict, and is not counted again. Call before registering routes.
 */
export function installDeviceEdge(app: FastifyInstance, options: DeviceEdgeOptions): DeviceEdge {
  const limiter = options.addresses;
  const limit: CallbackHook = (request, reply, done) => {
    const retryAfter = decidedAddressLimit(request.raw) ?? limiter.hit(request.ip);
    if (retryAfter === 0) return done();
    reply.header('retry-after', String(retryAfter));
    sendProblem(
      reply,
      429,
      'rate_limited',
      `Too many device requests from this address; retry in ${retryAfter} s.`,
    );
  };
  const byUrl = new Map<string, DeviceLimiter>();
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.config?.device) return;
    addRouteHook(route, 'onRequest', limit, 'first');
    const perDevice = route.config.deviceLimit;
    if (!perDevice) return;
    // Fastify's HEAD twin of a GET route runs the same handler: it counts in the GET route's bucket, or
    // HEAD would be a second allowance per device.
    const method = route.method === 'HEAD' ? 'GET' : String(route.method);
    const key = `${method} ${route.url}`;
    const buckets =
      byUrl.get(key) ??
      new DeviceLimiter({ perMinute: perDevice.max, ...(options.copies ? { copies: options.copies } : {}) });
    byUrl.set(key, buckets);
    addRouteHook(route, 'preHandler', devicePreHandler(perDevice, buckets), 'last');
  });
  return { deviceLimiter: (method, url) => byUrl.get(`${method} ${url}`) };
}

function devicePreHandler(settings: DeviceRateLimit, buckets: DeviceLimiter): CallbackHook {
  return (request, reply, done) => {
    const retryAfter = decidedDeviceLimit(request.raw) ?? buckets.take(settings.keyGenerator(request));
    if (retryAfter === 0) return done();
    reply.header('retry-after', String(retryAfter));
    sendProblem(reply, 429, 'rate_limited', `Rate limit exceeded; retry in ${retryAfter} s.`);
  };
}
