import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../../../src/http/types.js';
import { ENDPOINT_POLICY, type Policy, type Req } from './endpoint-policy.js';
import type { CallerName, Headers, Tenant } from './tenant.js';

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  [key: string]: unknown;
};

/** One operation of the live OpenAPI document. */
export interface Route {
  key: string;
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  /** Each query parameter's schema. */
  querySchemas?: Record<string, JsonSchema>;
  /** Request headers the route documents (the Expo protocol's), with their schemas. */
  headerParams: Array<{ name: string; schema: JsonSchema; required: boolean }>;
  /** The application/json request body schema, when the route takes one. */
  jsonBody?: JsonSchema;
}

interface Operation {
  parameters?: Array<{ in: string; name: string; schema?: JsonSchema; required?: boolean }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** Every operation the server documents, read from GET /api/v1/openapi.json. */
export async function documentedRoutes(app: App): Promise<Route[]> {
  const res = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`openapi.json: ${res.statusCode}`);
  const doc = res.json() as { paths: Record<string, Record<string, Operation>> };
  const routes: Route[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const params = op.parameters ?? [];
      routes.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        querySchemas: Object.fromEntries(
          params.filter((p) => p.in === 'query').map((p) => [p.name, p.schema ?? {}]),
        ),
        headerParams: params
          .filter((p) => p.in === 'header')
          .map((p) => ({ name: p.name, schema: p.schema ?? {}, required: p.required === true })),
        jsonBody: op.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return routes;
}

export interface Covered extends Route {
  policy: Policy;
}

/** The documented routes with their policy; throws naming every route that has none. */
export async function coveredRoutes(app: App): Promise<Covered[]> {
  const routes = await documentedRoutes(app);
  const missing = unpoliced(routes, ENDPOINT_POLICY);
  if (missing.length > 0) {
    throw new Error(`routes without a policy in endpoint-policy.ts: ${missing.join(', ')}`);
  }
  return routes.map((r) => ({ ...r, policy: ENDPOINT_POLICY[r.key]! }));
}

/**
 * The credential to send `route` as `caller` with: none for a public route, a fresh one of the same caller
 * for a call that ends its credential (sign-out), else the tenant's own.
 */
export async function credentialFor(
  route: Covered,
  t: Tenant,
  caller: CallerName = 'owner',
): Promise<Headers> {
  if (route.policy.access === 'public') return {};
  if (route.policy.access === 'control' && route.policy.endsUserSessions) return t.accountFor(caller);
  if (route.policy.access === 'control' && route.policy.endsCredential) return t.freshCredential(caller);
  return t.callers[caller];
}

/**
 * The owner's credential for fuzzing `route` (none for a public route): for a call that ends credentials,
 * a token of an account nothing else uses, since a fuzzed body may end every token of its user.
 */
export async function fuzzCredential(route: Covered, t: Tenant): Promise<Headers> {
  if (route.policy.access === 'public') return {};
  if (route.policy.access === 'control' && (route.policy.endsCredential || route.policy.endsUserSessions))
    return t.disposableCredential();
  return t.owner.headers;
}

export function urlOf(path: string, req: Req): string {
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = req.params?.[name];
    if (value === undefined) throw new Error(`no value for path parameter ${name} of ${path}`);
    return encodeURIComponent(value);
  });
  const query = req.query ? new URLSearchParams(req.query).toString() : '';
  return query ? `${filled}?${query}` : filled;
}

export async function send(
  app: App,
  route: { method: string; path: string },
  req: Req,
  headers: Headers = {},
): Promise<LightMyRequestResponse> {
  const all: Headers = { ...req.headers, ...headers };
  let payload: string | Buffer | undefined;
  if (req.raw) {
    all['content-type'] = 'application/octet-stream';
    payload = req.raw;
  } else if (req.body !== undefined) {
    all['content-type'] = 'application/json';
    payload = JSON.stringify(req.body);
  }
  return app.inject({ method: route.method as 'GET', url: urlOf(route.path, req), headers: all, payload });
}

const PROBLEM_FIELDS = new Set(['type', 'title', 'status', 'detail', 'code']);

/**
 * Asserts an application/problem+json answer with one of `statuses` and a stable snake_case `code`.
 * `bare`: nothing beyond the five problem fields (answers to refused credentials carry no data).
 */
export function assertProblem(
  res: LightMyRequestResponse,
  statuses: number[],
  what: string,
  options: { bare?: boolean; code?: string } = {},
): Record<string, unknown> {
  const where = `${what}: ${res.statusCode} ${res.body.slice(0, 300)}`;
  if (!statuses.includes(res.statusCode)) throw new Error(`expected ${statuses.join('/')}, got ${where}`);
  const type = String(res.headers['content-type'] ?? '');
  if (!type.startsWith('application/problem+json')) throw new Error(`not problem+json (${type}) ${where}`);
  // A HEAD answer has the headers of the GET and no body to read.
  if (res.raw.req.method === 'HEAD') return {};
  const body = JSON.parse(res.body) as Record<string, unknown>;
  if (body.status !== res.statusCode) throw new Error(`status field differs: ${where}`);
  if (typeof body.code !== 'string' || !/^[a-z][a-z0-9_]*$/.test(body.code))
    throw new Error(`no stable code: ${where}`);
  if (body.type !== `urn:ota:problem:${body.code}`) throw new Error(`type does not name the code: ${where}`);
  if (typeof body.detail !== 'string' || typeof body.title !== 'string')
    throw new Error(`detail and title must be strings: ${where}`);
  if (options.code && body.code !== options.code) throw new Error(`expected code ${options.code}: ${where}`);
  if (options.bare) {
    const extra = Object.keys(body).filter((k) => !PROBLEM_FIELDS.has(k));
    if (extra.length > 0) throw new Error(`unexpected fields ${extra.join(', ')}: ${where}`);
  }
  return body;
}

/** Asserts that no marker (another workspace's ids, names, e-mails) appears in the body. */
export function assertNoMarkers(res: LightMyRequestResponse, markers: string[], what: string): void {
  const found = markers.filter((m) => res.body.includes(m));
  if (found.length > 0) throw new Error(`${what}: body leaks ${found.join(', ')}: ${res.body.slice(0, 300)}`);
}

/** The text a request carries (URL and body), to leave out markers the caller sent itself. */
export function requestText(path: string, req: Req): string[] {
  return [urlOf(path, req), JSON.stringify(req.body ?? null)];
}

/** Documented routes that have no policy: each one fails the abuse tests. */
export function unpoliced(routes: Route[], table: Record<string, Policy>): string[] {
  return routes.filter((r) => !table[r.key]).map((r) => r.key);
}
