import { beforeAll, describe, expect, it } from 'vitest';
import { fileContext } from '../../helpers/context.js';
import type { ControlPolicy } from './endpoint-policy.js';
import {
  assertNoMarkers,
  assertProblem,
  type Covered,
  coveredRoutes,
  credentialFor,
  send,
} from './routes.js';
import { type Headers, Tenant } from './tenant.js';

let control: Array<Covered & { policy: ControlPolicy }>;

const ctx = fileContext();
beforeAll(async () => {
  control = (await coveredRoutes(ctx.app)).filter(
    (r): r is Covered & { policy: ControlPolicy } => r.policy.access === 'control',
  );
});

/**
 * Keys limited to apps (API.md "API keys") through every control route: a key limited to the tenant's
 * app is served where the request names that app and refused (403) on workspace-wide resources; a key
 * limited to another app of the same workspace is told the tenant's app does not exist (404).
 */
describe('API keys limited to apps on every control endpoint', () => {
  it('serves a key on its own app, 404s it on another app and 403s it on workspace-wide resources', async () => {
    const t = await Tenant.create(ctx, 'team');
    const elsewhere = await t.ok('POST', '/apps', { name: `Elsewhere ${t.tag}` });
    const own = await t.scopedKey([(await t.app()).id], 90 * 24 * 3600_000);
    const other = await t.scopedKey([elsewhere.id]);
    const failures: string[] = [];
    let cells = 0;
    for (const route of control) {
      const usable = !route.policy.usersOnly && route.policy.minimum !== 'owner';
      for (const [name, key] of [
        ['key limited to the app', own.headers],
        ['key limited to another app', other.headers],
      ] as Array<[string, Headers]>) {
        cells += 1;
        const req = await route.policy.request(t, 'admin key');
        const headers = route.policy.endsCredential ? await credentialFor(route, t, 'admin key') : key;
        const res = await send(ctx.app, route, req, headers);
        const what = `${route.key} with a ${name}`;
        try {
          if (!usable || route.policy.apps === undefined) assertProblem(res, [403], what);
          else if (route.policy.apps === 'app' && name === 'key limited to another app') {
            assertProblem(res, [404], what);
            assertNoMarkers(res, t.markers([elsewhere.id]), what);
          } else if (res.statusCode < 200 || res.statusCode >= 300)
            throw new Error(`${what}: ${res.statusCode} ${res.body}`);
        } catch (err) {
          failures.push((err as Error).message);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(cells).toBe(control.length * 2);
  }, 180_000);

  it('lists only the apps of the key', async () => {
    const t = await Tenant.create(ctx, 'team');
    const elsewhere = await t.ok('POST', '/apps', { name: `Elsewhere ${t.tag}` });
    const other = await t.scopedKey([elsewhere.id]);
    const res = await send(ctx.app, { method: 'GET', path: '/api/v1/apps' }, {}, other.headers);
    expect(res.json().apps.map((a: { id: string }) => a.id)).toEqual([elsewhere.id]);
  });
});
