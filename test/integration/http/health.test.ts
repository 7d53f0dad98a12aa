import { describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../../src/api/app.js';
import { loadConfig } from '../../../src/config/config.js';
import { createContainer } from '../../../src/container/container.js';
import { expectProblem, fileContext, signUp } from '../../helpers/context.js';

const ctx = fileContext();

const OPERATOR_TOKEN = 'operator-token-operator-token-0123456789';

/** A process whose Redis and ClickHouse are stopped (nothing listens on these ports). */
async function halfDown(env: Record<string, string> = {}) {
  const config = loadConfig({
    ...ctx.env,
    REDIS_URL: 'redis://127.0.0.1:1',
    CLICKHOUSE_URL: 'http://127.0.0.1:2',
    ...env,
  });
  const deps = createContainer(config, { name: 'test' });
  deps.redis.on('error', () => {});
  const app = await buildApp(deps);
  return {
    app,
    close: async () => {
      await app.close();
      deps.redis.disconnect();
      await deps.close();
    },
  };
}

describe('health and readiness', () => {
  it('answers /healthz and /readyz when every dependency is up, saying only that to the world', async () => {
    const health = await ctx.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await ctx.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  it('tells the world only "not ready" when a dependency is down: no names, no error texts', async () => {
    const down = await halfDown({ OPERATOR_TOKEN });
    try {
      for (const headers of [
        {},
        { authorization: 'Bearer wrong-operator-token-0123456789abcdef' },
        // A workspace credential is not an operator's.
        (await signUp(ctx.app)).headers,
      ]) {
        const res = await down.app.inject({ method: 'GET', url: '/readyz', headers });
        const body = expectProblem(res, 503, 'not_ready');
        expect(Object.keys(body).sort()).toEqual(['code', 'detail', 'status', 'title', 'type']);
        for (const leak of ['redis', 'clickhouse', 'postgres', 'ECONNREFUSED', '127.0.0.1', 'unreachable'])
          expect(res.body.toLowerCase()).not.toContain(leak.toLowerCase());
      }
    } finally {
      await down.close();
    }
  }, 60_000);

  it('gives operators (OPERATOR_TOKEN) each check with its error, and the details kept for them', async () => {
    const down = await halfDown({ OPERATOR_TOKEN });
    try {
      const res = await down.app.inject({
        method: 'GET',
        url: '/readyz',
        headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
      });
      const body = expectProblem(res, 503, 'not_ready');
      const checks = body.checks as Record<string, string>;
      expect(checks.postgres).toBe('ok');
      expect(checks.redis).toMatch(/^unreachable/);
      expect(checks.clickhouse).toMatch(/^unreachable/);
      expect(String(body.detail)).toContain('redis');
      expect(body.details).toMatchObject({
        database_role: { least_privilege: true, superuser: false, owned_objects: 0 },
        ingest_dead_letters: { error: expect.stringMatching(/^redis connection/) },
      });
    } finally {
      await down.close();
    }
    const ready = await halfDown({
      OPERATOR_TOKEN,
      REDIS_URL: ctx.env.REDIS_URL!,
      CLICKHOUSE_URL: ctx.env.CLICKHOUSE_URL!,
    });
    try {
      const res = await ready.app.inject({
        method: 'GET',
        url: '/readyz',
        headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
      });
      expect(res.json()).toMatchObject({
        status: 'ready',
        checks: { postgres: 'ok', redis: 'ok', clickhouse: 'ok' },
        details: {
          database_role: { role: new URL(ctx.env.DATABASE_URL!).username },
          ingest_dead_letters: { entries: 0, events: 0, held: 0 },
        },
      });
    } finally {
      await ready.close();
    }
  }, 60_000);

  it('answers anonymous callers from one probe of the backing services at a time, operators with a fresh one', async () => {
    const app = await halfDown({
      OPERATOR_TOKEN,
      REDIS_URL: ctx.env.REDIS_URL!,
      CLICKHOUSE_URL: ctx.env.CLICKHOUSE_URL!,
    });
    try {
      const pings = vi.spyOn(app.app.deps.blobs, 'ping');
      const started = Date.now();
      const anonymous = await Promise.all(
        Array.from({ length: 20 }, () => app.app.inject({ method: 'GET', url: '/readyz' })),
      );
      for (let i = 0; i < 20; i++) anonymous.push(await app.app.inject({ method: 'GET', url: '/readyz' }));
      for (const res of anonymous) expect(res.json()).toEqual({ status: 'ready' });
      // One probe per second the 40 answers took (the cached result lives a second), not one per caller.
      const seconds = Math.ceil((Date.now() - started) / 1000);
      expect(pings.mock.calls.length).toBeLessThanOrEqual(seconds + 1);
      expect(pings.mock.calls.length).toBeLessThan(20);
      const before = pings.mock.calls.length;
      const operator = await app.app.inject({
        method: 'GET',
        url: '/readyz',
        headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
      });
      expect(operator.json()).toMatchObject({ status: 'ready', checks: { blobs: 'ok' } });
      expect(pings.mock.calls.length).toBe(before + 1);
    } finally {
      await app.close();
    }
  });

  it('without OPERATOR_TOKEN no credential shows the details', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/readyz',
      headers: { authorization: 'Bearer ' },
    });
    expect(res.json()).toEqual({ status: 'ready' });
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
