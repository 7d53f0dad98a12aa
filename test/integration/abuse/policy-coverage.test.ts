import { beforeAll, describe, expect, it } from 'vitest';
import { fileContext } from '../../helpers/context.js';
import { ENDPOINT_POLICY } from './endpoint-policy.js';
import { refusedCredentials } from './refused-credentials.js';
import { assertProblem, documentedRoutes, type Route, send, unpoliced } from './routes.js';
import { Tenant } from './tenant.js';

let routes: Route[];
const ctx = fileContext();
beforeAll(async () => {
  routes = await documentedRoutes(ctx.app);
});

describe('every endpoint has a policy', () => {
  it('finds every route of the OpenAPI document in endpoint-policy.ts', () => {
    expect(routes.length).toBeGreaterThan(20);
    expect(ENDPOINT_POLICY[routes[0]!.key]).toBeDefined();
    expect(unpoliced(routes, ENDPOINT_POLICY)).toEqual([]);
  });

  it('fails for a route the table does not know', () => {
    const invented: Route = {
      key: 'POST /api/v1/invented',
      method: 'POST',
      path: '/api/v1/invented',
      pathParams: [],
      queryParams: [],
      headerParams: [],
    };
    expect(unpoliced([routes[0]!, invented], ENDPOINT_POLICY)).toEqual(['POST /api/v1/invented']);
  });

  it('has no entry for a route that no longer exists (hidden routes are answered)', async () => {
    const documented = new Set(routes.map((r) => r.key));
    const stale = Object.entries(ENDPOINT_POLICY)
      .filter(([key, p]) => !documented.has(key) && !(p.access === 'public' && p.hidden))
      .map(([key]) => key);
    expect(stale).toEqual([]);
    for (const [key, p] of Object.entries(ENDPOINT_POLICY)) {
      if (p.access !== 'public' || !p.hidden) continue;
      const [method, path] = key.split(' ') as [string, string];
      expect((await send(ctx.app, { method, path }, await p.request(undefined as never))).statusCode).toBe(
        200,
      );
    }
  });

  it('never opens an operator route to a workspace credential (no OPERATOR_TOKEN here: 404 to all)', async () => {
    const t = await Tenant.create(ctx);
    const operatorRoutes = routes.filter((r) => ENDPOINT_POLICY[r.key]?.access === 'operator');
    expect(operatorRoutes.map((r) => r.key)).toContain('GET /metrics');
    for (const route of operatorRoutes) {
      for (const headers of [{}, t.owner.headers]) {
        const res = await send(ctx.app, route, await ENDPOINT_POLICY[route.key]!.request(t), headers);
        expect(res.statusCode, `${route.key}: ${res.body}`).toBe(404);
      }
    }
  });

  it('answers public routes without a credential, and ignores a refused one', async () => {
    const t = await Tenant.create(ctx);
    const refused = await refusedCredentials(t);
    for (const route of routes) {
      const policy = ENDPOINT_POLICY[route.key];
      if (policy?.access !== 'public') continue;
      for (const headers of [{}, refused['expired token']!, refused['revoked API key']!]) {
        const res = await send(ctx.app, route, await policy.request(t), headers);
        if (policy.refusedWith !== undefined) {
          assertProblem(res, [policy.refusedWith], route.key);
          continue;
        }
        expect(res.statusCode, `${route.key}: ${res.body}`).toBeGreaterThanOrEqual(200);
        expect(res.statusCode, `${route.key}: ${res.body}`).toBeLessThan(300);
      }
    }
  });
});
