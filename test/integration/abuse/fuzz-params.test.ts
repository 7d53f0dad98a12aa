import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileContext } from '../../helpers/context.js';
import type { Req } from './endpoint-policy.js';
import { assertHandled, FUZZ_RUNS, fuzz } from './fuzz.js';
import { HOSTILE_QUERY_VALUES, HOSTILE_SEGMENTS, hostileQuery, hostileSegment } from './hostile.js';
import { ID_AND_LENGTH_KINDS, queryBase, urlVariants } from './hostile-strings.js';
import { type Covered, coveredRoutes, fuzzCredential } from './routes.js';
import { type Headers, Tenant } from './tenant.js';

let t: Tenant;
let routes: Covered[];

const ctx = fileContext();
beforeAll(async () => {
  t = await Tenant.create(ctx);
  routes = await coveredRoutes(ctx.app);
});

/** The route's URL with its valid parameters, one of them (`raw`, already URL text) replaced. */
function url(route: Covered, req: Req, raw?: { name: string; text: string }, query?: string): string {
  const path = route.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    raw?.name === name ? raw.text : encodeURIComponent(req.params?.[name] ?? ''),
  );
  return query === undefined ? path : `${path}?${query}`;
}

async function inject(route: Covered, req: Req, target: string, headers: Headers) {
  const body = req.raw ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
  const type = req.raw ? 'application/octet-stream' : 'application/json';
  return ctx.app.inject({
    method: route.method as 'GET',
    url: target,
    headers:
      body === undefined
        ? { ...req.headers, ...headers }
        : { ...req.headers, ...headers, 'content-type': type },
    ...(body === undefined ? {} : { payload: body }),
  });
}

const credentialOf = (route: Covered) => fuzzCredential(route, t);

describe('fuzzed path parameters and query strings', () => {
  it('answer below 500, every 4xx as problem+json, for every path parameter of every route', async () => {
    const failures: string[] = [];
    const withParams = routes.filter((r) => r.pathParams.length > 0);
    expect(withParams.length).toBeGreaterThan(5);
    for (const route of withParams) {
      const req = await route.policy.request(t);
      // Random segments, and the route's own valid ids in other forms (urn:uuid:, upper case) or too long.
      const ownVariants = (name: string) =>
        urlVariants(req.params?.[name] ?? '', ID_AND_LENGTH_KINDS).map((v) => v.text);
      const input = fc
        .constantFrom(...route.pathParams)
        .chain((name) =>
          fc.tuple(fc.constant(name), fc.oneof(hostileSegment, fc.constantFrom(...ownVariants(name)))),
        );
      const failure = await fuzz(
        `${route.key} path`,
        input,
        async ([name, text]) => {
          const res = await inject(route, req, url(route, req, { name, text }), await credentialOf(route));
          assertHandled(res, `${route.key} with ${name} = ${text.slice(0, 60)}`);
        },
        Math.ceil(FUZZ_RUNS / 2),
      );
      if (failure) failures.push(failure);
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it('answer below 500, every 4xx as problem+json, for query strings on every route', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      // Only reads take queries; a write with a fuzzed query still acts, so one request per write is enough.
      const req = await route.policy.request(t);
      const runs = route.method === 'GET' ? Math.ceil(FUZZ_RUNS / 2) : 1;
      const failure = await fuzz(
        `${route.key} query`,
        hostileQuery(route.queryParams),
        async (query) => {
          const fresh = route.method === 'GET' ? req : await route.policy.request(t);
          const res = await inject(
            route,
            fresh,
            url(route, fresh, undefined, query),
            await credentialOf(route),
          );
          assertHandled(res, `${route.key}?${query.slice(0, 80)}`);
        },
        runs,
      );
      if (failure) failures.push(failure);
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it('sweep: each path and query parameter as its valid value in another id form, or very long', async () => {
    const failures: string[] = [];
    let cases = 0;
    for (const route of routes) {
      const req = await route.policy.request(t);
      const targets = [
        ...route.pathParams.flatMap((name) =>
          urlVariants(req.params?.[name] ?? '', ID_AND_LENGTH_KINDS).map((v) => ({
            what: `${name} ${v.label}`,
            target: url(route, req, { name, text: v.text }),
          })),
        ),
        ...route.queryParams.flatMap((name) =>
          urlVariants(queryBase(route, req, name), ID_AND_LENGTH_KINDS).map((v) => ({
            what: `?${name} ${v.label}`,
            target: url(route, req, undefined, `${name}=${v.text}`),
          })),
        ),
      ];
      for (const { what, target } of targets) {
        cases += 1;
        // A write acts on each request: build a fresh one, as the valid request may be used up.
        const fresh = route.method === 'GET' || route.method === 'HEAD' ? req : await route.policy.request(t);
        const res = await inject(route, fresh, target, await credentialOf(route));
        try {
          assertHandled(res, `${route.key} with ${what}`);
        } catch (err) {
          failures.push((err as Error).message);
        }
      }
    }
    expect(cases).toBeGreaterThan(100);
    expect(failures).toEqual([]);
  }, 180_000);

  it('sweep: each path parameter and each query parameter set to each hostile constant', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      const req = await route.policy.request(t);
      const cases = [
        ...route.pathParams.flatMap((name) =>
          HOSTILE_SEGMENTS.map((text) => url(route, req, { name, text })),
        ),
        ...route.queryParams.flatMap((name) =>
          HOSTILE_QUERY_VALUES.map((v) => url(route, req, undefined, `${name}=${v}`)),
        ),
      ];
      for (const target of cases) {
        const res = await inject(route, req, target, await credentialOf(route));
        try {
          assertHandled(res, `${route.method} ${target.slice(0, 120)}`);
        } catch (err) {
          failures.push((err as Error).message);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 180_000);
});
