import { canonicalUuid, isDeviceId } from '@ota/shared/ids';
import type { FastifyRequest } from 'fastify';

interface KeyedRequest {
  body?: unknown;
  ip: string;
}

/**
 * The counter a device request falls in: its app and its device. The device is the body's `device_id`
 * (update check) or the first event's (an event batch comes from one device); without one, the client
 * address stands in. Only values shaped like an app id and a device id are used, so a body that failed
 * validation cannot make an unbounded Redis key.
 */
export function deviceRateLimitKey(request: KeyedRequest): string {
  const body = isObject(request.body) ? request.body : {};
  const app = canonicalUuid(body.app_id) ?? '-';
  const firstEvent = Array.isArray(body.events) && isObject(body.events[0]) ? body.events[0] : {};
  const device = [body.device_id, firstEvent.device_id].find(isDeviceId);
  return `device:${app}:${device ?? `ip:${request.ip}`}`;
}

/** A device endpoint's rate limit (route config `deviceLimit`), decided in process by device-edge.ts. */
export interface DeviceRateLimit {
  max: number;
  timeWindow: 60_000;
  /** Counted just before the handler, once the body (which holds the key) is parsed and validated. */
  hook: 'preHandler';
  keyGenerator: (request: FastifyRequest) => string;
}

/** Route config of the device endpoints: `perMinute` requests per app and device. */
export function deviceRateLimit(perMinute: number): DeviceRateLimit {
  return { max: perMinute, timeWindow: 60_000, hook: 'preHandler', keyGenerator: deviceRateLimitKey };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
