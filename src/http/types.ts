import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal.js';
import type { ApiContainer } from '../container.js';
import { unauthorized } from '../platform/errors.js';
import type { DeviceRateLimit } from './device-rate-limit.js';
import type { FastLanes } from './fast-lane.js';
import type { StringPolicy } from './string-safety.js';

/** The Fastify instance every route plugin receives (TypeBox schemas give typed requests). */
export type App = FastifyInstance<
  Server,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The composition root: the one decoration through which routes reach services. */
    deps: ApiContainer;
    /** The device routes served ahead of Fastify's pipeline (fast-lane.ts). */
    fastLanes: FastLanes;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** Routes that take no credential (sign-in, device endpoints, health). */
    public?: boolean;
    /** A device endpoint: limited per client address too (device-edge.ts). */
    device?: boolean;
    /** The per-app-and-device limit of a device endpoint, decided in process (device-edge.ts). */
    deviceLimit?: DeviceRateLimit;
    /** What a NUL or lone surrogate in a JSON body string becomes (string-safety.ts); default `refuse`. */
    strings?: StringPolicy;
    /** Served by a fast lane too (fast-lane.ts): a body the lane read is replayed to the route. */
    fastLane?: boolean;
  }
}

/** The authenticated caller of a non-public route. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized();
  return request.principal;
}
