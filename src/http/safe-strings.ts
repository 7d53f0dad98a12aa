import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { jsonTextNestsDeeperThan, jsonTooDeep, MAX_JSON_DEPTH } from '../edge/json-depth.js';
import {
  enforceStringPolicy,
  makeFlatSafe,
  mayHoldUnsafeString,
  type StringPolicy,
} from '../edge/string-safety.js';
import { addRouteHook, type CallbackHook } from './route-hooks.js';

function policyOf(request: FastifyRequest): StringPolicy {
  return request.routeOptions.config?.strings ?? 'refuse';
}

/**
 * Installs the JSON body parser that bounds the nesting (json-depth.ts) and applies each route's policy, and
 * the query/params replacement on every route that declares a query string or path parameters. Call before
 * registering routes.
 */
export function installStringSafety(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser(
    app.initialConfig.onProtoPoisoning ?? 'error',
    app.initialConfig.onConstructorPoisoning ?? 'error',
  );
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, raw, done) => {
    const body = String(raw);
    parseJson(request, body, (err: Error | null, value?: unknown) => {
      if (err) return done(err, undefined);
      // Read from the text, which the parser took: no walk of the parsed value (json-depth.ts).
      if (jsonTextNestsDeeperThan(body, MAX_JSON_DEPTH)) return done(jsonTooDeep(), undefined);
      if (!mayHoldUnsafeString(body)) return done(null, value);
      try {
        done(null, enforceStringPolicy(value, policyOf(request)));
      } catch (refused) {
        done(refused as Error, undefined);
      }
    });
  });
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = route.schema as { querystring?: unknown; params?: unknown } | undefined;
    if (!schema?.querystring && !schema?.params) return;
    const check: CallbackHook = (request, _reply, done) => {
      makeFlatSafe(request.params);
      makeFlatSafe(request.query);
      done();
    };
    addRouteHook(route, 'preValidation', check, 'last');
  });
}
