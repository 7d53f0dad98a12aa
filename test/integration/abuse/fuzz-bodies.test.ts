import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileContext } from '../../helpers/context.js';
import { assertHandled, fuzz } from './fuzz.js';
import { HOSTILE_CONSTANTS, hostileBodies, pathsOf, splice } from './hostile.js';
import {
  ID_AND_LENGTH_KINDS,
  jsonVariants,
  replaceAt,
  stringFieldBodies,
  stringFields,
} from './hostile-strings.js';
import { type Covered, coveredRoutes, fuzzCredential, urlOf } from './routes.js';
import { Tenant } from './tenant.js';

let t: Tenant;
let routes: Covered[];

const ctx = fileContext();
beforeAll(async () => {
  t = await Tenant.create(ctx);
  routes = (await coveredRoutes(ctx.app)).filter((r) => r.jsonBody);
});

describe('fuzzed JSON bodies', () => {
  it('are answered below 500, every 4xx as problem+json with a stable code, on every route with a body schema', async () => {
    expect(routes.length).toBeGreaterThan(5);
    const failures: string[] = [];
    for (const route of routes) {
      const req = await route.policy.request(t);
      const url = urlOf(route.path, req);
      // Random breakage, and the route's own strings as ids in other forms or very long.
      const variants = stringFieldBodies(req.body, route.jsonBody, ID_AND_LENGTH_KINDS);
      const bodies = hostileBodies(req.body, route.jsonBody);
      const input = variants ? fc.oneof(bodies, variants) : bodies;
      const failure = await fuzz(route.key, input, async (text) => {
        const res = await ctx.app.inject({
          method: route.method as 'POST',
          url,
          headers: { ...(await fuzzCredential(route, t)), 'content-type': 'application/json' },
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
      for (const path of pathsOf(req.body, route.jsonBody)) {
        for (const token of [...HOSTILE_CONSTANTS, undefined]) {
          const text = splice(req.body, path, token);
          const res = await ctx.app.inject({
            method: route.method as 'POST',
            url,
            headers: { ...(await fuzzCredential(route, t)), 'content-type': 'application/json' },
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

  it('sweep: each string field as an id in another form (urn:uuid:, upper case, braces) and very long', async () => {
    const failures: string[] = [];
    let cases = 0;
    for (const route of routes) {
      const req = await route.policy.request(t);
      const url = urlOf(route.path, req);
      for (const field of stringFields(req.body, route.jsonBody)) {
        for (const variant of jsonVariants(field.base, ID_AND_LENGTH_KINDS)) {
          cases += 1;
          const res = await ctx.app.inject({
            method: route.method as 'POST',
            url,
            headers: { ...(await fuzzCredential(route, t)), 'content-type': 'application/json' },
            payload: replaceAt(req.body, field.path, variant.text),
          });
          try {
            assertHandled(res, `${route.key} with ${field.path.join('.')} ${variant.label}`);
          } catch (err) {
            failures.push((err as Error).message);
          }
        }
      }
    }
    expect(cases).toBeGreaterThan(100);
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
      for (const type of types) {
        const req = await route.policy.request(t);
        const res = await ctx.app.inject({
          method: route.method as 'POST',
          url: urlOf(route.path, req),
          headers:
            type === undefined
              ? await fuzzCredential(route, t)
              : { ...(await fuzzCredential(route, t)), 'content-type': type },
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
