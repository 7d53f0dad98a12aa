import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { badRequest } from '../platform/errors.js';
import { jsonTooDeep, MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';
import { addRouteHook, type CallbackHook } from './route-hooks.js';

/**
 * Every string a client sends must be something Postgres, Redis and ClickHouse (18.16 and current) all
 * store: well-formed Unicode without NUL. Postgres refuses NUL in text, ClickHouse refuses a JSON escape of
 * a high surrogate without its pair (code 25) and stores a lone low surrogate as bytes that are not UTF-8,
 * and JavaScript hands lone surrogates on to all of them as the client sent them.
 *
 * What a route does with such a string is its `config.strings`:
 * - `refuse` (the default, every control endpoint): 400 `invalid_string` naming the field;
 * - `replace` (device endpoints): each NUL and each lone surrogate becomes U+FFFD, so an accepted event is
 *   never lost for one bad character of its message; fields with a fixed charset (ids) then fail their
 *   schema as any other bad character would.
 *
 * Cheap on the hot path: in JSON text such a string can only come from a `\u0000` or `\uD800`-`\uDFFF`
 * escape (raw control characters are not allowed in JSON strings, and raw bytes are decoded to well-formed
 * text, invalid sequences becoming U+FFFD), so the parsed body is walked only when the raw text holds one.
 * Query strings and path parameters are made safe on the routes that declare them (makeFlatSafe); headers
 * cannot carry either (Node's HTTP parser refuses NUL, and header bytes decode as Latin-1).
 */
export type StringPolicy = 'refuse' | 'replace';

// ES2024 string methods (Node 20 has them; the compiler's lib here is older).
declare global {
  interface String {
    isWellFormed(): boolean;
    toWellFormed(): string;
  }
}

const SUSPECT_ESCAPE = /\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})/;

export function isSafeString(value: string): boolean {
  return value.isWellFormed() && !value.includes('\0');
}

export function makeSafeString(value: string): string {
  return value.toWellFormed().replaceAll('\0', '\ufffd');
}

/** True when the JSON text may hold a string that is not safe (a false alarm only costs a walk). */
export function mayHoldUnsafeString(jsonText: string): boolean {
  return SUSPECT_ESCAPE.test(jsonText);
}

interface Frame {
  value: unknown;
  key: string | number;
  parent: Frame | undefined;
}

function pathOf(frame: Frame): string {
  const parts: string[] = [];
  for (let f: Frame | undefined = frame; f?.parent; f = f.parent) parts.push(String(f.key));
  return parts.reverse().join('.');
}

function unsafe(field: string) {
  const named = field === '' ? 'The body' : `Field "${field}"`;
  return badRequest(
    `${named} holds a NUL character or an unpaired UTF-16 surrogate (a lone \\uD800-\\uDFFF escape); send well-formed Unicode text without NUL.`,
    'invalid_string',
    { field },
  );
}

/**
 * Walks a parsed JSON value without recursion (bodies may nest thousands deep). `replace` rewrites bad
 * string values in place; a bad object key is refused under either policy (no route reads such a key).
 * Returns the value to use, or throws the 400.
 */
export function enforceStringPolicy(root: unknown, policy: StringPolicy): unknown {
  if (typeof root === 'string') {
    if (isSafeString(root)) return root;
    if (policy === 'replace') return makeSafeString(root);
    throw unsafe('');
  }
  const stack: Frame[] = [{ value: root, key: '', parent: undefined }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const value = frame.value;
    if (typeof value !== 'object' || value === null) continue;
    const container = value as Record<string, unknown>;
    const keys = Array.isArray(value) ? undefined : Object.keys(container);
    const length = keys ? keys.length : (value as unknown[]).length;
    for (let i = 0; i < length; i++) {
      const key = keys ? keys[i]! : i;
      const child = container[key as string];
      if (typeof key === 'string' && !isSafeString(key)) {
        throw unsafe(pathOf({ value: child, key: makeSafeString(key), parent: frame }));
      }
      if (typeof child === 'string') {
        if (isSafeString(child)) continue;
        if (policy === 'refuse') throw unsafe(pathOf({ value: child, key, parent: frame }));
        container[key as string] = makeSafeString(child);
      } else if (typeof child === 'object' && child !== null) {
        stack.push({ value: child, key, parent: frame });
      }
    }
  }
  return root;
}

function policyOf(request: FastifyRequest): StringPolicy {
  return request.routeOptions.config?.strings ?? 'refuse';
}

/**
 * Makes query string and path parameter values safe (strings, or arrays of them) by replacement, under
 * either policy: a value in a URL is an id, a name or a filter, so with U+FFFD in place of the bad code unit
 * it gets the answer any other malformed value gets (400 from its schema, or the 403/404 its route
 * documents) and never reaches a store as it was. (Their length is bounded by the request line's limit.)
 */
function makeFlatSafe(values: unknown): void {
  if (typeof values !== 'object' || values === null) return;
  const record = values as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const value = record[key];
    if (typeof value === 'string') {
      if (!isSafeString(value)) record[key] = makeSafeString(value);
    } else if (Array.isArray(value)) {
      record[key] = value.map((item) => (typeof item === 'string' ? makeSafeString(item) : item));
    }
  }
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
      // Nesting needs two characters a level: a shorter body cannot be too deep.
      if (body.length > 2 * MAX_JSON_DEPTH && nestsDeeperThan(value, MAX_JSON_DEPTH))
        return done(jsonTooDeep(), undefined);
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
