import type { IncomingMessage, Server } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  HTTPMethods,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify';
import type { AnswerTally } from '../platform/tallies.js';
import { sendProblem } from './error-handler.js';
import type { CallbackHook } from './route-hooks.js';
import type { App } from './types.js';

type Request<S extends FastifySchema> = FastifyRequest<
  RouteGenericInterface,
  Server,
  IncomingMessage,
  S,
  TypeBoxTypeProvider
>;

/**
 * A device endpoint, declared once in its feature folder: everything the device edge needs to know about
 * it is here (DESIGN.md "Device surfaces").
 */
export interface DeviceEndpoint<S extends FastifySchema> {
  method: HTTPMethods | HTTPMethods[];
  /** Under the plugin's prefix, as for `app.route`. */
  url: string;
  /** Request schemas (validated before the handler) and answers (documented in the OpenAPI document). */
  schema: S;
  /**
   * The per-device limit's key, from the validated request: its app and device (src/edge/device-key.ts).
   * Absent: the endpoint is limited per client address only (bundle and asset downloads).
   */
  deviceKey?: (request: Request<S>) => string;
  /**
   * Told of each request the per-device limit refuses (429), after the answer is sent: an update check
   * notes that it offered the device nothing.
   */
  limited?: (request: Request<S>) => void;
  /** Requests per minute one device may make here; RATE_LIMIT_DEVICE_PER_MINUTE when absent. */
  perMinute?: number;
  /**
   * Where the endpoint's answers are counted for /metrics: every answer's status and time, reported by the
   * log controller once sent (the update checks by protocol, the event batches).
   */
  answers?: AnswerTally;
  /** Hands schema failures to the handler (`request.validationError`) instead of the default 400. */
  attachValidation?: boolean;
  /** Answers the request: an answer made once and kept where its data lives is sent as it is. */
  handler: (request: Request<S>, reply: FastifyReply) => unknown;
}

/**
 * Registers a device endpoint: no credential (the app id names the app), strings made safe by replacement
 * (src/edge/string-safety.ts), the client address counted before the body is read and the device counted
 * once its request is valid, both in this process's memory (src/edge/device-edge.ts). The route carries
 * these two hooks of its own and nothing else, so a device request costs only what it needs; the first
 * also names where its answer is counted (`answers`), which the log controller reads.
 */
export function deviceRoute<S extends FastifySchema>(app: App, endpoint: DeviceEndpoint<S>): void {
  const { edge } = app.deps;
  const answers = endpoint.answers ?? null;
  const addressLimit: CallbackHook = (request, reply, done) => {
    // First of the route's hooks: every answer from here on, refusals included, is counted.
    request.answerTally = answers;
    const retryAfter = edge.addresses.hit(request.ip);
    if (retryAfter === 0) return done();
    reply.header('retry-after', String(retryAfter));
    sendProblem(
      reply,
      429,
      'rate_limited',
      `Too many device requests from this address; retry in ${retryAfter} s.`,
    );
  };
  const methods = Array.isArray(endpoint.method) ? endpoint.method : [endpoint.method];
  const keyOf = endpoint.deviceKey;
  let deviceLimit: CallbackHook | undefined;
  if (keyOf) {
    // One bucket per endpoint, whatever the method (Fastify's HEAD twin of a GET shares the GET's hooks).
    const devices = edge.devices(`${methods[0]} ${app.prefix}${endpoint.url}`, endpoint.perMinute);
    const limited = endpoint.limited;
    deviceLimit = (request, reply, done) => {
      const retryAfter = devices.take(keyOf(request as Request<S>));
      if (retryAfter === 0) return done();
      reply.header('retry-after', String(retryAfter));
      sendProblem(reply, 429, 'rate_limited', `Rate limit exceeded; retry in ${retryAfter} s.`);
      limited?.(request as Request<S>);
    };
  }
  app.route({
    method: endpoint.method,
    url: endpoint.url,
    schema: endpoint.schema,
    config: { public: true, device: true, strings: 'replace' },
    ...(endpoint.attachValidation ? { attachValidation: true } : {}),
    onRequest: addressLimit,
    ...(deviceLimit ? { preHandler: deviceLimit } : {}),
    handler: endpoint.handler as RouteHandlerMethod,
  });
}
