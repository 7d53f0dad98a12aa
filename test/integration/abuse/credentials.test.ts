import { beforeAll, describe, expect, it } from 'vitest';
import { fileContext } from '../../helpers/context.js';
import type { ControlPolicy } from './endpoint-policy.js';
import { refusedCredentials } from './refused-credentials.js';
import { assertNoMarkers, assertProblem, type Covered, coveredRoutes, send } from './routes.js';
import { type Headers, Tenant } from './tenant.js';

let t: Tenant;
let control: Array<Covered & { policy: ControlPolicy }>;
let refused: Record<string, Headers>;

const ctx = fileContext();
beforeAll(async () => {
  t = await Tenant.create(ctx);
  refused = await refusedCredentials(t);
  control = (await coveredRoutes(ctx.app)).filter(
    (r): r is Covered & { policy: ControlPolicy } => r.policy.access === 'control',
  );
});

describe('refused credentials on every control endpoint', () => {
  it('answers 401 problem+json carrying no data, for every endpoint × credential', async () => {
    const failures: string[] = [];
    let cells = 0;
    for (const route of control) {
      // A request that the owner could make: only the credential is wrong.
      const req = await route.policy.request(t);
      for (const [name, headers] of Object.entries(refused)) {
        cells += 1;
        const res = await send(ctx.app, route, req, headers);
        try {
          assertProblem(res, [401], `${route.key} with ${name}`, { bare: true });
          assertNoMarkers(res, t.markers(), `${route.key} with ${name}`);
        } catch (err) {
          failures.push((err as Error).message);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(cells).toBe(control.length * Object.keys(refused).length);
  }, 120_000);

  it('answers 401 to HEAD on every control GET route (Fastify adds HEAD routes the document leaves out)', async () => {
    for (const route of control.filter((r) => r.method === 'GET')) {
      const req = await route.policy.request(t);
      const res = await send(ctx.app, { method: 'HEAD', path: route.path }, req, refused['no credential']);
      expect(res.statusCode, `HEAD ${route.path}`).toBe(401);
      expect(res.body).toBe('');
    }
  });

  it('names why: expired, revoked, removed and signed-out credentials have their own codes', async () => {
    const me = { method: 'GET', path: '/api/v1/me' };
    const code = async (name: string) =>
      assertProblem(await send(ctx.app, me, {}, refused[name]), [401], name).code;
    expect(await code('no credential')).toBe('unauthorized');
    expect(await code('expired token')).toBe('token_expired');
    expect(await code('token signed with another key')).toBe('invalid_token');
    expect(await code('token naming the user id')).toBe('invalid_token');
    expect(await code('token with alg none')).toBe('invalid_token');
    expect(await code('revoked API key')).toBe('invalid_api_key');
    expect(await code('expired API key')).toBe('api_key_expired');
    expect(await code('expired API key limited to the app')).toBe('api_key_expired');
    expect(await code("a removed member's token")).toBe('membership_revoked');
    expect(await code('signed-out token')).toBe('token_revoked');
    expect(await code('token without an id')).toBe('invalid_token');
    expect(await code('token of a user signed out everywhere')).toBe('invalid_token');
    // The same request with the owner's credential succeeds: the refusals above are the credential's.
    expect((await send(ctx.app, me, {}, t.owner.headers)).statusCode).toBe(200);
  });
});
