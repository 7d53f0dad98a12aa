import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../helpers/context.js';
import { assertHandled, fuzz } from './fuzz.js';
import { HOSTILE_CONSTANTS, hostileBodies, pathsOf, splice } from './hostile.js';
import { type Covered, coveredRoutes, urlOf } from './routes.js';
import { Tenant } from './tenant.js';

let ctx: TestContext;
let t: Tenant;
let routes: Covered[];

beforeAll(async () => {
  ctx = await createTestContext();
  t = await Tenant.create(ctx);
  routes = (await coveredRoutes(ctx.app)).filter((r) => r.jsonBody);
});
afterAll(async () => {
  await ctx?.close();
});

describe('fuzzed JSON bodies', () => {
  it('are answered below 500, every 4xx as problem+json with a stable code, on every route with a body schema', async () => {
    expect(routes.length).toBeGreaterThan(5);
    const failures: string[] = [];
    for (const route of routes) {
      const req = await route.policy.request(t);
      const url = urlOf(route.path, req);
      const headers = route.policy.access === 'public' ? {} : t.owner.headers;
      const failure = await fuzz(route.key, hostileBodies(req.body, route.jsonBody), async (text) => {
        const res = await ctx.app.inject({
          method: route.method as 'POST',
          url,
          headers: { ...headers, 'content-type': 'application/json' },
          payload: text,
        });
        assertHandled(res, route.key);
      });
      if (failure) failures.push(failure);
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it('sweep: each field of each body set to each hostile constant, and each field left out', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      const req = await route.policy.request(t);
      const url = urlOf(route.path, req);
      const headers = route.policy.access === 'public' ? {} : t.owner.headers;
      for (const path of pathsOf(req.body, route.jsonBody)) {
        for (const token of [...HOSTILE_CONSTANTS, undefined]) {
          const text = splice(req.body, path, token);
          const res = await ctx.app.inject({
            method: route.method as 'POST',
            url,
            headers: { ...headers, 'content-type': 'application/json' },
            payload: text,
          });
          try {
            assertHandled(res, `${route.key} with ${path.join('.')} = ${token?.slice(0, 40) ?? '(missing)'}`);
          } catch (err) {
            failures.push((err as Error).message);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it('sweep: the valid body under odd or wrong content types', async () => {
    const types = [
      undefined,
      '',
      'application/JSON',
      'application/json; charset=utf-16',
      'application/json; charset=latin1',
      'application/json;;;',
      'application/problem+json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'text/plain',
      'text/html',
      'application/octet-stream',
      '*/*',
      'x'.repeat(2000),
    ];
    const failures: string[] = [];
    for (const route of routes) {
      const headers = route.policy.access === 'public' ? {} : t.owner.headers;
      for (const type of types) {
        const req = await route.policy.request(t);
        const res = await ctx.app.inject({
          method: route.method as 'POST',
          url: urlOf(route.path, req),
          headers: type === undefined ? headers : { ...headers, 'content-type': type },
          payload: JSON.stringify(req.body),
        });
        try {
          assertHandled(res, `${route.key} as ${type?.slice(0, 40)}`);
        } catch (err) {
          failures.push((err as Error).message);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 180_000);
});
