import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  RouteOptions,
} from 'fastify';
import { AddressLimiter } from './address-limiter.js';
import { DeviceLimiter } from './device-limiter.js';
import { type DeviceRateLimit, deviceRateLimit } from './device-rate-limit.js';
import { sendProblem } from './error-handler.js';

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
  // A callback hook, not an async one: an admitted request costs no promise.
  const limit = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
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
    const existing = route.onRequest;
    route.onRequest = existing ? [limit, ...(Array.isArray(existing) ? existing : [existing])] : [limit];
    const perDevice = route.config.deviceLimit;
    if (perDevice) {
      const handler = devicePreHandler(perDevice, options.copies);
      const before = route.preHandler;
      route.preHandler = before ? [...(Array.isArray(before) ? before : [before]), handler] : [handler];
    }
  });
  return limiter;
}

function devicePreHandler(settings: DeviceRateLimit, copies: number | undefined) {
  const buckets = new DeviceLimiter({ perMinute: settings.max, ...(copies ? { copies } : {}) });
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const retryAfter = buckets.take(settings.keyGenerator(request));
    if (retryAfter === 0) return done();
    reply.header('retry-after', String(retryAfter));
    sendProblem(reply, 429, 'rate_limited', `Rate limit exceeded; retry in ${retryAfter} s.`);
  };
}
