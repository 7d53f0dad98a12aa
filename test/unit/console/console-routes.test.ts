import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleFallback, consoleRoutes } from '../../../src/console/console.routes.js';
import { errorHandler, sendProblem } from '../../../src/http/error-handler.js';
import type { App } from '../../../src/http/types.js';

let dir: string;
let app: FastifyInstance;

const INDEX =
  '<!doctype html><title>console</title><script type="module" src="/assets/index-abc.js"></script>';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ota-console-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(join(dir, 'index.html'), INDEX);
  await writeFile(join(dir, 'assets', 'index-abc.js'), 'console.log(1)');
  await writeFile(join(dir, '.secret'), 'no');
  app = buildTestApp(dir);
  await app.register((instance) => consoleRoutes(instance as unknown as App, { dir }));
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The parts of buildApp the console meets: the error handler, the not-found handler, a parameter limit. */
function buildTestApp(consoleDir: string): FastifyInstance {
  const instance = Fastify({ maxParamLength: 20, frameworkErrors: errorHandler });
  instance.setErrorHandler(errorHandler);
  const page = consoleFallback(consoleDir);
  instance.setNotFoundHandler(
    (request, reply) => page?.(request, reply) ?? sendProblem(reply, 404, 'not_found', 'No route.'),
  );
  instance.get('/api/v1/known', async () => ({ ok: true }));
  instance.get('/api/v1/apps/:id', async () => ({ ok: true }));
  return instance;
}

describe('console serving', () => {
  it('serves index.html at / with no-cache and a content security policy', async () => {
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toBe(INDEX);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(String(res.headers['content-security-policy'])).toContain("default-src 'self'");
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });

  it('serves hashed assets as immutable', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/index-abc.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('answers page paths (deep links) with index.html', async () => {
    for (const url of [
      '/apps',
      '/apps/0b3c8a7e-1111-4222-8333-944445555666',
      '/activity?action=login',
      '/team/',
    ]) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(INDEX);
      expect(res.headers['content-security-policy'], url).toBeDefined();
    }
    const head = await app.inject({ method: 'HEAD', url: '/apps' });
    expect(head.statusCode).toBe(200);
  });

  it('keeps problem+json 404s for unknown API paths and missing files', async () => {
    for (const url of [
      '/api/v1/no-such-thing',
      '/api',
      '/api/other',
      '/assets/index-old.js',
      '/favicon.ico',
      '/.secret',
    ]) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^application\/problem\+json/);
      expect(res.json().code, url).toBe('not_found');
    }
    expect((await app.inject({ method: 'GET', url: '/api/v1/known' })).json()).toEqual({ ok: true });
    const post = await app.inject({ method: 'POST', url: '/apps' });
    expect(post.statusCode).toBe(404);
    expect(post.json().code).toBe('not_found');
  });

  it('leaves the router’s own refusals alone: an over-long parameter is still a 414', async () => {
    const res = await app.inject({ method: 'GET', url: `/api/v1/apps/${'a'.repeat(21)}` });
    expect(res.statusCode).toBe(414);
    expect(res.json().code).toBe('uri_too_long');
    expect((await app.inject({ method: 'GET', url: `/api/v1/apps/${'a'.repeat(20)}` })).statusCode).toBe(200);
  });

  it('registers nothing when the console is not built', async () => {
    const bare = Fastify();
    await bare.register((instance) =>
      consoleRoutes(instance as unknown as App, { dir: join(dir, 'missing') }),
    );
    await bare.ready();
    expect((await bare.inject({ method: 'GET', url: '/apps' })).statusCode).toBe(404);
    await bare.close();
  });
});
