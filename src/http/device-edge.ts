import type { FastifyContextConfig, FastifyInstance, RouteOptions } from 'fastify';
import { AddressLimiter } from './address-limiter.js';
import { DeviceLimiter } from './device-limiter.js';
import { type DeviceRateLimit, deviceRateLimit } from './device-rate-limit.js';
import { sendProblem } from './error-handler.js';
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
  addressPerMinute: number;
  /** API copies the per-device allowance is divided among (API_COPIES). */
  copies?: number;
}

/**
 * Limits every device endpoint to `perMinute` requests per client address (an IPv6 /64 counting as one),
 * whatever device id or app id the requests name, so rotating ids does not escape the per-device limit.
 * Checked when the request arrives, before its body is read. A route's `deviceLimit` (per app and device)
 * is checked once the body is validated, in a bucket of that route's own. Call before registering routes.
 */
export function installDeviceEdge(app: FastifyInstance, options: DeviceEdgeOptions): AddressLimiter {
  const limiter = new AddressLimiter({ max: options.addressPerMinute, windowMs: 60_000 });
  const limit: CallbackHook = (request, reply, done) => {
    const retryAfter = limiter.hit(request.ip);
    if (retryAfter === 0) return done();
    reply.header('retry-after', String(retryAfter));
    sendProblem(
      reply,
      429,
      'rate_limited',
      `Too many device requests from this address; retry in ${retryAfter} s.`,
    );
  };
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.config?.device) return;
    addRouteHook(route, 'onRequest', limit, 'first');
    const perDevice = route.config.deviceLimit;
    if (perDevice) addRouteHook(route, 'preHandler', devicePreHandler(perDevice, options.copies), 'last');
  });
  return limiter;
}

function devicePreHandler(settings: DeviceRateLimit, copies: number | undefined): CallbackHook {
  const buckets = new DeviceLimiter({ perMinute: settings.max, ...(copies ? { copies } : {}) });
  return (request, reply, done) => {
    const retryAfter = buckets.take(settings.keyGenerator(request));
    if (retryAfter === 0) return done();
    reply.header('retry-after', String(retryAfter));
    sendProblem(reply, 429, 'rate_limited', `Rate limit exceeded; retry in ${retryAfter} s.`);
  };
}
