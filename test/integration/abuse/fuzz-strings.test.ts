import { beforeAll, describe, expect, it } from 'vitest';
import { fileContext } from '../../helpers/context.js';
import type { Req } from './endpoint-policy.js';
import { assertHandled, fuzz } from './fuzz.js';
import {
  jsonVariants,
  queryBase,
  replaceAt,
  stringFieldBodies,
  stringFields,
  UNSAFE_TEXT_KINDS,
  urlVariants,
} from './hostile-strings.js';
import { type Covered, coveredRoutes, fuzzCredential, urlOf } from './routes.js';
import { type Headers, Tenant } from './tenant.js';

/**
 * NUL and lone surrogates inside otherwise valid strings, for every string field of every body and every
 * path and query parameter: Postgres refuses NUL in text and ClickHouse refuses lone surrogates, so each
 * must be answered with a 4xx problem (or made safe) at the API, never reach a store and fail there.
 */
let t: Tenant;
let routes: Covered[];

const ctx = fileContext();
beforeAll(async () => {
  t = await Tenant.create(ctx);
  routes = await coveredRoutes(ctx.app);
});

const credentialOf = (route: Covered): Promise<Headers> => fuzzCredential(route, t);

async function sendText(route: Covered, url: string, payload: string) {
  return ctx.app.inject({
    method: route.method as 'POST',
    url,
    headers: { ...(await credentialOf(route)), 'content-type': 'application/json' },
    payload,
  });
}

/** The route's URL with one path parameter (`raw`, already URL text) or the query replaced. */
function target(route: Covered, req: Req, raw?: { name: string; text: string }, query?: string): string {
  const path = route.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    raw?.name === name ? raw.text : encodeURIComponent(req.params?.[name] ?? ''),
  );
  return query === undefined ? path : `${path}?${query}`;
}

describe('NUL and lone surrogates in strings', () => {
  it('sweep: in each string field of each JSON body, answered below 500 as problem+json', async () => {
    const failures: string[] = [];
    let cases = 0;
    for (const route of routes.filter((r) => r.jsonBody)) {
      const req = await route.policy.request(t);
      const url = urlOf(route.path, req);
      for (const field of stringFields(req.body, route.jsonBody)) {
        for (const variant of jsonVariants(field.base, UNSAFE_TEXT_KINDS)) {
          cases += 1;
          const res = await sendText(route, url, replaceAt(req.body, field.path, variant.text));
          try {
            assertHandled(res, `${route.key} with ${field.path.join('.')}: ${variant.label}`);
          } catch (err) {
            failures.push((err as Error).message);
          }
        }
      }
    }
    expect(cases).toBeGreaterThan(100);
    expect(failures).toEqual([]);
  }, 180_000);

  it('fuzz: inserted anywhere in any string field of each JSON body', async () => {
    const failures: string[] = [];
    for (const route of routes.filter((r) => r.jsonBody)) {
      const req = await route.policy.request(t);
      const input = stringFieldBodies(req.body, route.jsonBody, UNSAFE_TEXT_KINDS);
      if (!input) continue;
      const url = urlOf(route.path, req);
      const failure = await fuzz(`${route.key} strings`, input, async (text) => {
        assertHandled(await sendText(route, url, text), route.key);
      });
      if (failure) failures.push(failure);
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it('sweep: in each path parameter and each query parameter, answered below 500 as problem+json', async () => {
    const failures: string[] = [];
    let cases = 0;
    for (const route of routes) {
      const req = await route.policy.request(t);
      const urls = [
        ...route.pathParams.flatMap((name) =>
          urlVariants(req.params?.[name] ?? '', UNSAFE_TEXT_KINDS).map((v) => ({
            what: `${name}: ${v.label}`,
            url: target(route, req, { name, text: v.text }),
          })),
        ),
        ...route.queryParams.flatMap((name) =>
          urlVariants(queryBase(route, req, name), UNSAFE_TEXT_KINDS).map((v) => ({
            what: `?${name}: ${v.label}`,
            url: target(route, req, undefined, `${name}=${v.text}`),
          })),
        ),
      ];
      for (const { what, url } of urls) {
        cases += 1;
        const body = req.raw ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
        const type = req.raw ? 'application/octet-stream' : 'application/json';
        const res = await ctx.app.inject({
          method: route.method as 'GET',
          url,
          headers:
            body === undefined
              ? await credentialOf(route)
              : { ...(await credentialOf(route)), 'content-type': type },
          ...(body === undefined ? {} : { payload: body }),
        });
        try {
          assertHandled(res, `${route.key} with ${what}`);
        } catch (err) {
          failures.push((err as Error).message);
        }
      }
    }
    expect(cases).toBeGreaterThan(50);
    expect(failures).toEqual([]);
  }, 180_000);
});
