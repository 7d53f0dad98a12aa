import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';
import { createContainer } from '../../../src/container.js';
import { buildApp } from '../../../src/http/app.js';
import { createTestContext, expectProblem, type TestContext } from '../../helpers/context.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

describe('health and readiness', () => {
  it('answers /healthz and /readyz when every dependency is up', async () => {
    const health = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await ctx.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ready',
      checks: { postgres: 'ok', redis: 'ok', clickhouse: 'ok' },
    });
  });

  it('reports a stopped dependency with 503 and names it', async () => {
    // A process whose Redis and ClickHouse are stopped: nothing listens on these ports.
    const config = loadConfig({
      ...ctx.env,
      REDIS_URL: 'redis://127.0.0.1:1',
      CLICKHOUSE_URL: 'http://127.0.0.1:2',
    });
    const deps = createContainer(config, { name: 'test' });
    deps.redis.on('error', () => {});
    const app = await buildApp(deps);
    try {
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      const body = expectProblem(res, 503, 'not_ready');
      const checks = body.checks as Record<string, string>;
      expect(checks.postgres).toBe('ok');
      expect(checks.redis).toMatch(/^unreachable/);
      expect(checks.clickhouse).toMatch(/^unreachable/);
      expect(String(body.detail)).toContain('redis');
    } finally {
      await app.close();
      deps.redis.disconnect();
      await deps.close();
    }
  });

  it('serves the OpenAPI document with the auth routes', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v1/auth/signin', '/api/v1/me']));
  });

  it('documents the 503 of a backing service away on every API operation', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
    };
    const missing: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (!path.startsWith('/api/v1/') || path === '/api/v1/openapi.json') continue;
      for (const [method, operation] of Object.entries(operations)) {
        if (!operation.responses?.['503']) missing.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
