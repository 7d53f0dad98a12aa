import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController } from 'fastify';
import { statsRoutes } from '../analytics/stats.routes.js';
import { apiKeysRoutes } from '../api-keys/api-keys.routes.js';
import { appsRoutes } from '../apps/apps.routes.js';
import { auditRoutes } from '../audit/audit.routes.js';
import { authRoutes } from '../auth/auth.routes.js';
import { bundlesRoutes } from '../bundles/bundles.routes.js';
import { codePushFastLane } from '../codepush/codepush.lane.js';
import { PATHS as CODEPUSH_PATHS, codePushRoutes } from '../codepush/codepush.routes.js';
import { deploymentKeysRoutes } from '../codepush/deployment-keys.routes.js';
import { consoleFallback, consoleRoutes } from '../console/console.routes.js';
import type { ApiContainer } from '../container.js';
import { devicesRoutes } from '../devices/devices.routes.js';
import { expoManifestLane } from '../expo/expo.lane.js';
import { expoRoutes, MANIFEST_PATH } from '../expo/expo.routes.js';
import { healthRoutes } from '../health/health.routes.js';
import { invitationsRoutes } from '../invitations/invitations.routes.js';
import { manifestsRoutes } from '../manifests/manifests.routes.js';
import { membersRoutes } from '../members/members.routes.js';
import { releasesRoutes } from '../releases/releases.routes.js';
import { alertsRoutes } from '../spikes/alerts.routes.js';
import { deviceEventsRoutes } from '../telemetry/events.routes.js';
import { ingestStatusRoutes } from '../telemetry/ingest-status.routes.js';
import { bundleDownloadRoutes } from '../updates/bundle-download.routes.js';
import { checkFastLane } from '../updates/updates.lane.js';
import { updatesRoutes } from '../updates/updates.routes.js';
import { webhooksRoutes } from '../webhooks/webhooks.routes.js';
import { workspacesRoutes } from '../workspaces/workspaces.routes.js';
import { AddressLimiter } from './address-limiter.js';
import { clientErrorHandler } from './client-errors.js';
import { registerComponents } from './components.js';
import { type DeviceEdge, installDeviceEdge } from './device-edge.js';
import { errorHandler, sendProblem } from './error-handler.js';
import { FastLanes } from './fast-lane.js';
import { replayLaneBodies } from './lane-handover.js';
import { LazyRequestLogger } from './lazy-request-logger.js';
import { swaggerOptions } from './openapi.js';
import { addRouteHook, type CallbackHook } from './route-hooks.js';
import { installStringSafety } from './string-safety.js';
import type { App } from './types.js';
import { validatorCompiler } from './validation.js';

export const API_PREFIX = '/api/v1';

/** Route plugins under /api/v1, in one list so a newcomer sees every feature of the API here. */
const API_ROUTES: Array<(app: App) => Promise<void>> = [
  authRoutes,
  apiKeysRoutes,
  workspacesRoutes,
  devicesRoutes,
  membersRoutes,
  invitationsRoutes,
  auditRoutes,
  appsRoutes,
  bundlesRoutes,
  releasesRoutes,
  deviceEventsRoutes,
  ingestStatusRoutes,
  statsRoutes,
  updatesRoutes,
  bundleDownloadRoutes,
  webhooksRoutes,
  alertsRoutes,
  deploymentKeysRoutes,
  manifestsRoutes,
  expoRoutes,
];

export async function buildApp(deps: ApiContainer): Promise<App> {
  // One per process: the route hooks and the fast lanes count device requests per address in it.
  const addresses = new AddressLimiter({
    max: deps.config.rateLimits.deviceAddressPerMinute,
    windowMs: 60_000,
  });
  const lanes = new FastLanes({
    addresses,
    trustProxy: deps.config.http.trustProxy,
    bodyLimitBytes: deps.config.http.bodyLimitBytes,
  });
  const app = Fastify({
    // Node's HTTP server with the fast lanes in front of Fastify (fast-lane.ts).
    serverFactory: lanes.serverFactory(),
    loggerInstance: deps.log.child({ component: 'http' }),
    // Requests are not logged one by one (the fleet's traffic would drown the log); 5xx answers are.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: deps.config.http.bodyLimitBytes,
    // The client address (request.ip) every per-address limit counts: see TRUST_PROXY.
    trustProxy: deps.config.http.trustProxy,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    childLoggerFactory: (logger, bindings, options) => new LazyRequestLogger(logger, bindings, options),
    // Requests that arrive while the server closes are refused by the lanes' listener, in front of every
    // request (fast-lane.ts); Fastify's own refusal would also hit a request a lane hands over after the
    // close began, which arrived before it and must finish.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // An over-long path parameter is refused by the router with FST_ERR_MAX_PARAM_LENGTH (414).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Malformed URLs and over-long path parameters, refused by the router, also leave as problem+json.
    frameworkErrors: errorHandler,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  app.decorate('deps', deps);
  app.decorate('fastLanes', lanes);
  app.decorateRequest('principal', null);
  // The API speaks JSON; a text/plain body is refused with 415 rather than parsed as a string.
  app.removeContentTypeParser('text/plain');
  // Every JSON body, query string and path parameter: well-formed Unicode without NUL, before validation.
  installStringSafety(app);
  const edge = installDeviceEdge(app, { addresses, copies: deps.config.rateLimits.apiCopies });
  app.addHook('onRoute', replayLaneBodies);
  app.addHook('preClose', (done) => {
    lanes.closing = true;
    closeConnectionsAsTheyIdle(app.server);
    done();
  });
  // Runs once the server has closed (Fastify closes it in the onClose hook it adds last, which runs first).
  // Clients retry a refusal on another copy, but a load balancer that does not retry a 503 passes it on:
  // the operator sees how many there were.
  app.addHook('onClose', (_instance, done) => {
    if (lanes.refusedWhileClosing > 0)
      app.log.warn({ refused: lanes.refusedWhileClosing }, 'requests refused while shutting down');
    done();
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setErrorHandler(errorHandler);
  // A page path of the web console (a deep link) answers its index.html; anything else is a 404 problem.
  const consolePage = consoleFallback();
  app.setNotFoundHandler(
    (request, reply) =>
      consolePage?.(request, reply) ??
      sendProblem(reply, 404, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}.`),
  );
  // Callback hooks, not async ones, on every request: an async hook costs a promise per request even when
  // it has nothing to do (the profile in bench/profiles.md).
  app.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode >= 500)
      request.log.warn({ url: request.url, status: reply.statusCode }, 'server error');
    done();
  });

  // Sign-in limits are declared per route (config.rateLimit) and counted in Redis, so all API copies share
  // them; if Redis is down the limit is skipped rather than failing the request. Device routes are limited
  // in process instead (config.deviceLimit, device-edge.ts): no round trip on the hot path.
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

  await app.register(swagger, swaggerOptions(deps.config.publicUrl));
  registerComponents(app);

  await app.register(healthRoutes);
  // The CodePush acquisition API lives at the root, as the CodePush service had it (CodePushServerURL is
  // the service's base URL). Device routes: no credential.
  await app.register(codePushRoutes);
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
      // The credential check is attached to each route that needs one, ahead of the route's own hooks:
      // public routes (devices among them) carry no hook at all, not even one that returns at once.
      typed.addHook('onRoute', (route) => {
        if (!route.config?.public) addRouteHook(route, 'onRequest', authenticate, 'first');
      });
      typed.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () =>
        app.swagger(),
      );
      for (const routes of API_ROUTES) await typed.register(routes);
    },
    { prefix: API_PREFIX },
  );
  // The web console at `/` (outside /api/v1, no credential: the page signs in through the API).
  await app.register(consoleRoutes);
  addFastLanes(app, lanes, edge);
  return app;
}

/** The device routes also served on a fast lane (fast-lane.ts), each beside its route's limiter. */
function addFastLanes(app: App, lanes: FastLanes, edge: DeviceEdge): void {
  const checkPath = `${API_PREFIX}/updates/check`;
  const devices = edge.deviceLimiter('POST', checkPath);
  if (!devices) throw new Error(`no device limiter for POST ${checkPath}`);
  lanes.add(checkFastLane({ path: checkPath, updates: app.deps.services.updates, devices }));
  const { codePush, deploymentKeyDirectory: keys } = app.deps.services;
  for (const casing of ['snake', 'camel'] as const) {
    const path = CODEPUSH_PATHS[casing].check;
    const limiter = edge.deviceLimiter('GET', path);
    if (!limiter) throw new Error(`no device limiter for GET ${path}`);
    lanes.add(codePushFastLane({ path, casing, codePush, keys, devices: limiter }));
  }
  const manifestPath = `${API_PREFIX}${MANIFEST_PATH}`;
  const manifestDevices = edge.deviceLimiter('GET', manifestPath);
  if (!manifestDevices) throw new Error(`no device limiter for GET ${manifestPath}`);
  const { expoUpdates } = app.deps.services;
  lanes.add(expoManifestLane({ path: manifestPath, expoUpdates, devices: manifestDevices }));
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * While the server closes, keep-alive connections are closed as soon as they have nothing in flight. Node
 * and Fastify (forceCloseConnections 'idle') close the idle ones once, when the close begins; a connection
 * whose request finishes after that (a lane's answer carries no `Connection: close`) would otherwise stay
 * open until keepAliveTimeout, past SHUTDOWN_GRACE_MS, and the process would be cut off before it flushed.
 */
function closeConnectionsAsTheyIdle(server: Server): void {
  // A server that never listened (an app answering only `inject`) has no connections and emits no 'close'.
  if (!server.listening) return;
  const timer = setInterval(() => server.closeIdleConnections(), 50);
  timer.unref();
  server.once('close', () => clearInterval(timer));
}
