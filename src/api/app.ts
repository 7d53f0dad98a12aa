import { randomUUID } from 'node:crypto';
import type { Server, ServerOptions } from 'node:http';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import { consoleFallback, consoleRoutes } from '../console/console.routes.js';
import type { ApiContainer } from '../container/container.types.js';
import { PROVEN_EMAIL_NOTE, PROVEN_EMAIL_ROUTES } from '../email-verification/proven-email.js';
import { addAppScopeCheck } from '../http/app-scope.js';
import { clientErrorHandler } from '../http/client-errors.js';
import { errorHandler, sendProblem } from '../http/error-handler.js';
import { LazyRequestLogger } from '../http/lazy-request-logger.js';
import { ServiceLogController } from '../http/log-controller.js';
import { addRouteHook, type CallbackHook } from '../http/route-hooks.js';
import { installStringSafety } from '../http/safe-strings.js';
import { type App, principalOf } from '../http/types.js';
import { validatorCompiler } from '../http/validation.js';
import { registerComponents } from './components.js';
import { swaggerOptions } from './openapi.js';
import { CODEPUSH_ROUTES, CONTROL_ROUTES, DEVICE_ROUTES, SERVICE_ROUTES } from './routes.js';

export const API_PREFIX = '/api/v1';

declare module 'fastify' {
  interface FastifyInstance {
    /** The composition root: the one decoration through which routes reach services (set by buildApp). */
    deps: ApiContainer;
  }
}

/**
 * The API's Fastify app, with the surfaces API_SURFACES names (all three by default): `device` (update
 * checks, events, downloads, CodePush, Expo, Capacitor), `control` (the HTTP API of people and tools, with the auth
 * hook and the OpenAPI document) and `console` (the web console's files). A process without a surface
 * loads none of its routes: its paths answer 404.
 */
export async function buildApp(deps: ApiContainer): Promise<App> {
  const surfaces = deps.config.http.surfaces;
  const logController = new ServiceLogController();
  const app = Fastify({
    loggerInstance: deps.log.child({ component: 'http' }),
    logController,
    bodyLimit: deps.config.http.bodyLimitBytes,
    // The client address (request.ip) every per-address limit counts: see TRUST_PROXY.
    trustProxy: deps.config.http.trustProxy,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    childLoggerFactory: (logger, bindings, options) => new LazyRequestLogger(logger, bindings, options),
    // A request's headers and body must arrive within REQUEST_TIMEOUT_MS: Node answers 408 or closes the
    // connection at its next check of open connections, a quarter of the timeout later at most.
    requestTimeout: deps.config.http.requestTimeoutMs,
    http: nodeServerOptions(deps.config.http.requestTimeoutMs),
    keepAliveTimeout: deps.config.http.keepAliveTimeoutMs,
    // Node's socket inactivity timeout (0, none, by default): a connection on which nothing has moved
    // either way for CONNECTION_IDLE_TIMEOUT_MS is destroyed, so a client that stops reading a download
    // gives back its socket and the blob file streaming to it.
    connectionTimeout: deps.config.http.connectionIdleTimeoutMs,
    // Keep-alive connections idle when the close begins are closed at once; busy ones after their answer.
    forceCloseConnections: 'idle',
    // An over-long path parameter is refused by the router with FST_ERR_MAX_PARAM_LENGTH (414).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Malformed URLs and over-long path parameters, refused by the router, also leave as problem+json.
    frameworkErrors: errorHandler,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  app.decorate('deps', deps);
  app.decorateRequest('principal', null);
  app.decorateRequest('answerTally', null);
  // The API speaks JSON; a text/plain body is refused with 415 rather than parsed as a string.
  app.removeContentTypeParser('text/plain');
  // Every JSON body, query string and path parameter: well-formed Unicode without NUL, before validation.
  installStringSafety(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setErrorHandler(errorHandler);
  // A page path of the web console (a deep link) answers its index.html; anything else is a 404 problem.
  const consolePage = surfaces.has('console') ? consoleFallback() : undefined;
  app.setNotFoundHandler(
    (request, reply) =>
      consolePage?.(request, reply) ??
      sendProblem(reply, 404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}.`),
  );
  // The routing cache (every surface reads it) follows invalidations; buffered counts are written on close.
  app.addHook('onReady', () => deps.services.updates.start());
  app.addHook('onClose', () => deps.services.updates.stop());
  // Runs once the server has closed: how many requests arrived too late (the operator's to see).
  app.addHook('onClose', (_instance, done) => {
    const refused = logController.refusedWhileClosing;
    if (refused > 0) app.log.warn({ refused }, 'requests refused while shutting down');
    done();
  });

  app.addHook('preClose', (done) => {
    closeConnectionsAsTheyIdle(app.server);
    done();
  });
  app.server.maxConnections = deps.config.http.maxConnections;

  // The OpenAPI document describes every route registered after it (the device routes included).
  if (surfaces.has('control')) await app.register(swagger, swaggerOptions(deps.config.publicUrl));
  // The shared schemas (problem+json and the named shapes) every surface's answers refer to.
  registerComponents(app);
  for (const routes of SERVICE_ROUTES) await app.register(routes);
  if (surfaces.has('device')) await registerDeviceSurface(app);
  if (surfaces.has('control')) await registerControlSurface(app);
  // The web console at `/` (outside /api/v1, no credential: the page signs in through the API).
  if (surfaces.has('console')) await app.register(consoleRoutes);
  return app;
}

async function registerDeviceSurface(app: App): Promise<void> {
  for (const routes of CODEPUSH_ROUTES) await app.register(routes);
  await app.register(
    async (api) => {
      for (const routes of DEVICE_ROUTES) await api.register(routes);
    },
    { prefix: API_PREFIX },
  );
}

async function registerControlSurface(app: App): Promise<void> {
  const { deps } = app;
  // Sign-in limits are declared per route (config.rateLimit) and counted in Redis, so all API copies share
  // them; if Redis is down the limit is skipped rather than failing the request.
  await app.register(rateLimit, {
    global: false,
    redis: deps.redis,
    nameSpace: deps.keys.global('ratelimit:'),
    skipOnError: true,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `Rate limit exceeded; retry in ${Math.ceil(context.ttl / 1000)} s.`,
    }),
  });
  await app.register(
    async (api) => {
      const typed = api as unknown as App;
      const authenticate: CallbackHook = (request, _reply, done) => {
        deps.services.auth
          .authenticate({
            authorization: request.headers.authorization,
            apiKey: headerValue(request.headers['x-api-key']),
          })
          .then((principal) => {
            request.principal = principal;
            done();
          }, done);
      };
      // An account that has not proven its e-mail may not use the routes PROVEN_EMAIL_ROUTES names: checked
      // right after the credential, before the body of an upload is read.
      const provenEmail =
        (what: string): CallbackHook =>
        (request, _reply, done) => {
          deps.services.emailVerification.requireProven(principalOf(request), what).then(() => done(), done);
        };
      // The credential check is attached to each route that needs one, ahead of the route's own hooks.
      typed.addHook('onRoute', (route) => {
        if (route.config?.public) return;
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        const what = methods
          .map((m) => PROVEN_EMAIL_ROUTES[`${m} ${route.url.slice(API_PREFIX.length)}`])
          .find((w) => w !== undefined);
        if (what) {
          addRouteHook(route, 'onRequest', provenEmail(what), 'first');
          // Said where the route is documented, so no route file has to repeat it.
          if (route.schema) {
            route.schema.description = `${route.schema.description ?? ''} ${PROVEN_EMAIL_NOTE}`.trim();
          }
        }
        addRouteHook(route, 'onRequest', authenticate, 'first');
        addAppScopeCheck(route, deps.stores);
      });
      typed.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () =>
        app.swagger(),
      );
      for (const routes of CONTROL_ROUTES) await typed.register(routes);
    },
    { prefix: API_PREFIX },
  );
}

/** Node's own checks of slow requests, tied to REQUEST_TIMEOUT_MS (headers alone within at most 60 s). */
function nodeServerOptions(requestTimeoutMs: number): ServerOptions {
  return {
    requestTimeout: requestTimeoutMs,
    headersTimeout: Math.min(60_000, requestTimeoutMs),
    connectionsCheckingInterval: Math.max(250, Math.min(30_000, Math.floor(requestTimeoutMs / 4))),
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * While the server closes, keep-alive connections are closed as soon as they have nothing in flight. Node
 * and Fastify (forceCloseConnections 'idle') close the idle ones once, when the close begins; a connection
 * whose answer is sent after that would otherwise stay open until its keep-alive timeout, past
 * SHUTDOWN_GRACE_MS, and the process would be cut off before it flushed.
 */
function closeConnectionsAsTheyIdle(server: Server): void {
  // A server that never listened (an app answering only `inject`) has no connections and emits no 'close'.
  if (!server.listening) return;
  const timer = setInterval(() => server.closeIdleConnections(), 50);
  timer.unref();
  server.once('close', () => clearInterval(timer));
}
