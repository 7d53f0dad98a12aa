import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../access/principal.js';
import type { StringPolicy } from '../edge/string-safety.js';
import { unauthorized } from '../platform/errors.js';
import type { AnswerTally } from '../platform/tallies.js';

/** The Fastify instance every route plugin receives (TypeBox schemas give typed requests). */
export type App = FastifyInstance<
  Server,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /** Where a device endpoint's answer is counted (device-route.ts); the log controller reports to it. */
    answerTally: AnswerTally | null;
  }
  interface FastifyContextConfig {
    /** Routes that take no credential (sign-in, device endpoints, health). */
    public?: boolean;
    /** A device endpoint (device-route.ts): limited per client address and per app and device. */
    device?: boolean;
    /** What a NUL or lone surrogate in a JSON body string becomes (string-safety.ts); default `refuse`. */
    strings?: StringPolicy;
    /**
     * How the route names its app, for API keys limited to some apps (src/http/app-scope.ts); a route
     * without it is workspace-wide and refuses such keys.
     */
    appScope?: 'app' | 'release' | 'draft' | 'any';
  }
}

/** The authenticated caller of a non-public route. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized();
  return request.principal;
}
