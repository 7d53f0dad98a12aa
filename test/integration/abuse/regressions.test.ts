import { beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, fileContext } from '../../helpers/context.js';
import { coveredRoutes, urlOf } from './routes.js';
import { Tenant } from './tenant.js';

/** Inputs the abuse tests once answered with a 500; each is now a 4xx, and the normal case still works. */
let t: Tenant;
const ctx = fileContext();
beforeAll(async () => {
  t = await Tenant.create(ctx);
});

describe('NUL characters, which Postgres text cannot store', () => {
  it('are refused in an API key name', async () => {
    const url = `/workspaces/${t.workspaceId}/api-keys`;
    for (const name of ['\u0000', 'ci\u0000key', 'line\nbreak']) {
      const res = await t.call('POST', url, { name, role: 'viewer' });
      // NUL is refused before the schema by the string rule of every body (invalid_string).
      const code = name.includes('\u0000') ? 'invalid_string' : 'invalid_request';
      expect(expectProblem(res, 400, code).field).toBe('name');
    }
    expect((await t.call('POST', url, { name: 'CI – déploiement 🚀', role: 'viewer' })).statusCode).toBe(201);
  });

  it('are refused in release notes, which keep their line breaks', async () => {
    const { id: appId } = await t.app();
    const push = async (notes: string) =>
      t.call('POST', '/modules', { app_id: appId, version: '1', sha256: await t.bundle(), notes });
    expect(expectProblem(await push('fixed\u0000crash'), 400, 'invalid_string').field).toBe('notes');
    const ok = await push('Fixes:\n\t- the crash on start\r\n');
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().notes).toBe('Fixes:\n\t- the crash on start\r\n');
  });
});

describe('URLs the router refuses', () => {
  it('answers a malformed percent-encoding with a 400 problem', async () => {
    for (const segment of ['%ZZ', '%E0%A4%A', '%C0%AF', '%u0041']) {
      expectProblem(await t.call('GET', `/apps/${segment}`), 400, 'bad_url');
    }
  });

  it('answers an over-long path parameter with a 414 problem', async () => {
    expectProblem(await t.call('GET', `/apps/${'a'.repeat(201)}`), 414, 'uri_too_long');
    expectProblem(await t.call('GET', `/apps/${'a'.repeat(200)}`), 400, 'invalid_request');
  });
});

describe('paging offsets', () => {
  it('refuses a release-list offset that Postgres cannot hold', async () => {
    const { id } = await t.app();
    const res = await t.call('GET', `/apps/${id}/modules?offset=99999999999999999999`);
    expect(expectProblem(res, 400, 'invalid_request').field).toBe('offset');
    const far = await t.call('GET', `/apps/${id}/modules?offset=${Number.MAX_SAFE_INTEGER}`);
    expect(far.statusCode, far.body).toBe(200);
    expect(far.json().modules).toEqual([]);
  });
});

describe('analytics ranges', () => {
  it('refuses times ClickHouse DateTime cannot hold (before 1970, after 2106-02-07)', async () => {
    const { id } = await t.app();
    const stats = (query: string) => t.call('GET', `/apps/${id}/stats?${query}`);
    for (const query of [
      'to=0001-01-01T00:00:00Z',
      'to=1970-01-01T10:00:00Z', // the default "from" (24 hours earlier) falls before 1970
      'from=1969-12-31T23:00:00Z&to=1970-01-01T01:00:00Z',
      'from=2106-02-07T00:00:00Z&to=2106-02-07T06:28:16Z&interval=minute',
      'to=9999-12-31T23:59:59.999Z&interval=day',
    ]) {
      expectProblem(await stats(query), 400, 'invalid_range');
    }
    const first = await stats('from=1970-01-01T00:00:00Z&to=1970-01-01T01:00:00Z&interval=minute');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().series).toEqual([]);
  });
});

describe('signed pushes', () => {
  it('keep a lone surrogate in a draft as JSON text (jsonb refused it with a 500)', async () => {
    const { id: appId } = await t.app();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/modules/drafts',
      headers: { ...t.owner.headers, 'content-type': 'application/json' },
      payload: `{"app_id":"${appId}","version":"v\\ud800","sha256":"${await t.bundle()}","key_id":"main"}`,
    });
    expect(res.statusCode, res.body).toBeLessThan(500);
    const ok = await t.call('POST', '/modules/drafts', {
      app_id: appId,
      version: 'v1',
      sha256: await t.bundle(),
      key_id: 'main',
    });
    expect(ok.statusCode, ok.body).toBe(202);
  });
});

describe('JSON nested thousands deep, which recursive code (JSON.stringify) cannot walk', () => {
  /** `{"a":{"a":…{}…}}` with `depth` objects, as text: building it with JSON.stringify would overflow too. */
  const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
  const expoPush = async (extra: string) => {
    const sha256 = await t.bundle();
    const body = JSON.stringify({
      app_id: (await t.app()).id,
      version: `deep-${Math.random().toString(36).slice(2, 8)}`,
      runtime_version: '1.0.0',
      platforms: { ios: { bundle: sha256, assets: [] } },
      extra: { placeholder: true },
    }).replace('{"placeholder":true}', extra);
    return ctx.app.inject({
      method: 'POST',
      url: '/api/v1/expo/releases',
      headers: { ...t.owner.headers, 'content-type': 'application/json' },
      payload: body,
    });
  };

  it('refuses an Expo push whose extra nests 4,114 deep with a 400 problem (it was a 500)', async () => {
    const res = await expoPush(nested(4114));
    expect(expectProblem(res, 400, 'json_too_deep').detail).toMatch(/deep/);
    const ok = await expoPush(nested(20));
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('refuses such a body on every route that takes JSON, before its schema or handler sees it', async () => {
    const routes = (await coveredRoutes(ctx.app)).filter((r) => r.jsonBody);
    expect(routes.length).toBeGreaterThan(10);
    const failures: string[] = [];
    for (const route of routes) {
      const req = await route.policy.request(t);
      const res = await ctx.app.inject({
        method: route.method as 'POST',
        url: urlOf(route.path, req),
        headers: {
          ...req.headers,
          ...(route.policy.access === 'public' ? {} : t.owner.headers),
          'content-type': 'application/json',
        },
        payload: `{"deep":[${nested(4114)}]}`,
      });
      try {
        expectProblem(res, 400, 'json_too_deep');
      } catch (err) {
        failures.push(`${route.key}: ${(err as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
