import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileContext } from '../../helpers/context.js';
import { assertHandled, FUZZ_RUNS, fuzz } from './fuzz.js';
import { type Covered, coveredRoutes, fuzzCredential, urlOf } from './routes.js';
import { type Headers, Tenant } from './tenant.js';

/**
 * Every request header a route documents (the Expo protocol's, for one), set to hostile values one at a
 * time, the others valid: never a 5xx, every 4xx problem+json. Header values are what HTTP can carry
 * (visible ASCII, spaces and tabs, bytes 0x80-0xff read as Latin-1), up to the server's header size limit.
 */
let t: Tenant;
let routes: Covered[];

const ctx = fileContext();
beforeAll(async () => {
  t = await Tenant.create(ctx);
  routes = (await coveredRoutes(ctx.app)).filter((r) => r.headerParams.length > 0);
});

const HOSTILE_HEADER_VALUES = [
  '',
  ' ',
  '1',
  '0',
  '-1',
  '1.0',
  '999999999999999999999',
  'ios',
  'IOS',
  'web',
  '*',
  '*/*;q=2',
  'multipart/mixed;q=0',
  'a/b;q=0.5;q=1, , ;, =, /',
  'sig',
  'sig=?1',
  'sig, keyid="',
  'keyid=main, alg=1',
  '"\\"',
  '("a" "b"), "c";x=1',
  '"00000000-0000-0000-0000-000000000000", 1, ?0, :AAA=:',
  `${'"a", '.repeat(3000)}"a"`,
  '00000000-0000-0000-0000-00000000000G',
  'urn:uuid:00000000-0000-0000-0000-000000000000',
  '../../etc/passwd',
  '%00',
  '\u00e9\u00ff\u0080',
  'x'.repeat(5000),
  'a'.repeat(128),
  'a'.repeat(129),
];

const headerValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_HEADER_VALUES),
  fc.string({
    unit: fc.constantFrom(...' \t!"#%()*,-./0123456789:;=?ABCDEFabcdef[]\\_~'.split('')),
    maxLength: 200,
  }),
  fc.string({ unit: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 50 }),
  fc.integer({ min: 100, max: 8000 }).map((n) => 'z'.repeat(n)),
);

const credentialOf = (route: Covered): Promise<Headers> => fuzzCredential(route, t);

async function send(route: Covered, headers: Record<string, string | string[] | undefined>) {
  const req = await route.policy.request(t);
  const merged: Record<string, string | string[]> = { ...req.headers, ...(await credentialOf(route)) };
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) delete merged[name];
    else merged[name] = value;
  }
  return ctx.app.inject({ method: route.method as 'GET', url: urlOf(route.path, req), headers: merged });
}

describe('fuzzed request headers', () => {
  it('answer below 500, every 4xx as problem+json, for every documented header of every route', async () => {
    expect(routes.length).toBeGreaterThan(0);
    const failures: string[] = [];
    for (const route of routes) {
      const names = route.headerParams.map((h) => h.name);
      const failure = await fuzz(
        `${route.key} headers`,
        fc.tuple(fc.constantFrom(...names), headerValue),
        async ([name, value]) => {
          const res = await send(route, { [name]: value });
          assertHandled(res, `${route.key} with ${name}: ${value.slice(0, 60)}`);
        },
        FUZZ_RUNS * 2,
      );
      if (failure) failures.push(failure);
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it('sweep: each header absent, repeated, and set to each hostile constant', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      for (const { name } of route.headerParams) {
        const cases: Array<string | string[] | undefined> = [undefined, ['1', '1'], ...HOSTILE_HEADER_VALUES];
        for (const value of cases) {
          const res = await send(route, { [name]: value });
          try {
            assertHandled(res, `${route.key} with ${name}: ${JSON.stringify(value)?.slice(0, 60)}`);
          } catch (err) {
            failures.push((err as Error).message);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 180_000);
});
