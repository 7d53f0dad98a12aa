import type { FastifyContextConfig, FastifyInstance, RouteOptions } from 'fastify';
import { AddressLimiter } from './address-limiter.js';
import { deviceRateLimit } from './device-rate-limit.js';
import { sendProblem } from './error-handler.js';
import { addRouteHook, type CallbackHook } from './route-hooks.js';

/**
 * Route config of a device endpoint (no credential; the app id names the app): public, strings made safe
 * by replacement rather than refused (string-safety.ts), limited per client address in process (below) and
 * per app and device in Redis (device-rate-limit.ts). Protocol adapters use it for their device routes.
 */
export function deviceRoute(devicePerMinute: number): FastifyContextConfig {
  return { public: true, device: true, strings: 'replace', rateLimit: deviceRateLimit(devicePerMinute) };
}

/**
 * Limits every device endpoint to `perMinute` requests per client address (an IPv6 /64 counting as one),
 * whatever device id or app id the requests name, so rotating ids does not escape the per-device limit.
 * Checked when the request arrives, before its body is read. Call before registering routes.
 */
export function installDeviceEdge(
  app: FastifyInstance,
  options: { addressPerMinute: number },
): AddressLimiter {
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
    if (route.config?.device) addRouteHook(route, 'onRequest', limit, 'first');
  });
  return limiter;
}
