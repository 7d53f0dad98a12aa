import { describe, expect, it } from 'vitest';
import { OtaClient } from '../../../client/client.js';
import { ApiError, NetworkError } from '../../../client/errors.js';
import type { FetchLike } from '../../../client/transport.js';

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** A scripted fetch: answers in order, recording each request. */
function fakeFetch(answers: Array<Response | Error | (() => Response)>) {
  const calls: Call[] = [];
  const fetch: FetchLike = async (url, init = {}) => {
    const body = init.body;
    calls.push({
      url,
      method: init.method ?? 'GET',
      headers: init.headers as Record<string, string>,
      body: typeof body === 'string' ? body : body === undefined ? undefined : '[stream]',
    });
    const next = answers.shift();
    if (!next) throw new Error('no more scripted answers');
    if (next instanceof Error) throw next;
    return typeof next === 'function' ? next() : next;
  };
  return { fetch, calls };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const problem = (status: number, code: string, detail: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ type: `urn:ota:problem:${code}`, title: 'x', status, code, detail }), {
    status,
    headers: { 'content-type': 'application/problem+json', ...headers },
  });

function client(
  fetch: FetchLike,
  sleeps: number[] = [],
  credentials?: { apiKey: string } | { token: string },
) {
  return new OtaClient({
    baseUrl: 'http://api.test:8080/',
    fetch,
    credentials,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    now: () => Date.parse('2026-11-22T06:00:00Z'),
  });
}

describe('control-API client transport', () => {
  it('sends the API key or the bearer token, and nothing on anonymous calls', async () => {
    const { fetch, calls } = fakeFetch([
      json(200, { user: null, workspace_id: 'w', role: 'admin', workspaces: [] }),
      json(200, { token: 't', workspace_id: 'w', user: { id: 'u', email: 'e' }, created: false }),
      json(200, { apps: [] }),
    ]);
    const c = client(fetch, [], { apiKey: 'ota_abc' });
    await c.auth.me();
    await c.auth.signin('a@b.c', 'password1');
    c.setCredentials({ token: 'tok' });
    await c.apps.list();
    expect(calls[0]!.url).toBe('http://api.test:8080/api/v1/me');
    expect(calls[0]!.headers['x-api-key']).toBe('ota_abc');
    expect(calls[1]!.headers['x-api-key']).toBeUndefined();
    expect(calls[1]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(calls[1]!.body!)).toEqual({ email: 'a@b.c', password: 'password1' });
    expect(calls[2]!.headers.authorization).toBe('Bearer tok');
    expect(calls[2]!.headers['x-api-key']).toBeUndefined();
  });

  it('builds paths and query strings, leaving out absent values', async () => {
    const { fetch, calls } = fakeFetch([
      json(200, { entries: [], limit: 5, offset: 0, next_offset: null }),
      json(200, { modules: [] }),
      new Response(null, { status: 204 }),
    ]);
    const c = new OtaClient({ baseUrl: 'https://h.test/api/v1', fetch });
    await c.audit.list({ action: 'module.push', limit: 5, app_id: undefined });
    await c.apps.modules('a/b', { channel: 'beta & more' });
    expect(await c.apiKeys.revoke('w', 'k')).toBeUndefined();
    expect(calls[0]!.url).toBe('https://h.test/api/v1/audit?action=module.push&limit=5');
    expect(calls[1]!.url).toBe('https://h.test/api/v1/apps/a%2Fb/modules?channel=beta%20%26%20more');
    expect(calls[2]!.method).toBe('DELETE');
  });

  it('turns problem+json into an ApiError with status, code, detail and body', async () => {
    const { fetch } = fakeFetch([
      problem(402, 'plan_upgrade_required', 'Staged rollouts need the pro plan.'),
    ]);
    const err = await client(fetch)
      .modules.push({ app_id: 'a', version: '1', sha256: 'x', rollout_pct: 50 })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 402, code: 'plan_upgrade_required', method: 'POST' });
    expect(err.detail).toBe('Staged rollouts need the pro plan.');
    expect(err.isUpgradeRequired).toBe(true);
    expect((err.body as { type: string }).type).toBe('urn:ota:problem:plan_upgrade_required');
  });

  it('keeps a non-JSON error body as text and names a status code', async () => {
    const { fetch } = fakeFetch([
      new Response('<h1>Bad gateway</h1>', { status: 502, statusText: 'Bad Gateway' }),
    ]);
    const err = (await client(fetch)
      .apps.list()
      .catch((e) => e)) as ApiError;
    expect(err).toMatchObject({ status: 502, code: 'http_502', body: '<h1>Bad gateway</h1>' });
    expect(err.detail).toBe('<h1>Bad gateway</h1>');
  });

  it('retries 429 after the Retry-After seconds, then returns the answer', async () => {
    const sleeps: number[] = [];
    const { fetch, calls } = fakeFetch([
      problem(429, 'rate_limited', 'Too many', { 'retry-after': '2' }),
      json(200, { apps: [{ id: '1' }] }),
    ]);
    const answer = await client(fetch, sleeps).apps.list();
    expect(answer.apps).toHaveLength(1);
    expect(calls).toHaveLength(2);
    expect(sleeps).toEqual([2000]);
  });

  it('honours Retry-After given as an HTTP date', async () => {
    const sleeps: number[] = [];
    const { fetch } = fakeFetch([
      problem(503, 'dependency_unavailable', 'down', { 'retry-after': 'Sun, 22 Nov 2026 06:00:05 GMT' }),
      json(200, { apps: [] }),
    ]);
    await client(fetch, sleeps).apps.list();
    expect(sleeps).toEqual([5000]);
  });

  it('backs off exponentially with jitter on 503 and gives up after the retries with the last error', async () => {
    const sleeps: number[] = [];
    const { fetch, calls } = fakeFetch(
      Array.from({ length: 4 }, () => problem(503, 'dependency_unavailable', 'A backing service is down.')),
    );
    const err = await client(fetch, sleeps)
      .apps.create('x')
      .catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.code).toBe('dependency_unavailable');
    expect(calls).toHaveLength(4);
    // random() = 0.5 of a ceiling of 250, 500, 1000 ms
    expect(sleeps).toEqual([125, 250, 500]);
  });

  it('does not wait for a Retry-After beyond its limit', async () => {
    const sleeps: number[] = [];
    const { fetch, calls } = fakeFetch([problem(429, 'rate_limited', 'later', { 'retry-after': '3600' })]);
    const err = await client(fetch, sleeps)
      .apps.list()
      .catch((e) => e);
    expect(err.status).toBe(429);
    expect(calls).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('does not retry other errors', async () => {
    const { fetch, calls } = fakeFetch([problem(500, 'internal_error', 'boom')]);
    await expect(client(fetch).apps.list()).rejects.toMatchObject({ status: 500 });
    expect(calls).toHaveLength(1);
  });

  it('retries a network failure for GET but not for POST, and names the unreachable server', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    const get = fakeFetch([refused, json(200, { apps: [] })]);
    await expect(client(get.fetch).apps.list()).resolves.toEqual({ apps: [] });
    expect(get.calls).toHaveLength(2);

    const post = fakeFetch([refused]);
    const err = await client(post.fetch)
      .apps.create('x')
      .catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toBe('The server at http://api.test:8080 is unreachable (ECONNREFUSED).');
    expect(post.calls).toHaveLength(1);

    // Device calls are POSTs that are safe to repeat (a read; events deduplicated by id).
    const check = fakeFetch([refused, json(200, { update: null })]);
    await expect(client(check.fetch).devices.check({ app_id: 'a', device_id: 'd' })).resolves.toEqual({
      update: null,
    });
    expect(check.calls).toHaveLength(2);
  });

  it('times out a silent server as a NetworkError', async () => {
    const hang: FetchLike = (_url, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    const c = new OtaClient({
      baseUrl: 'http://slow.test',
      fetch: hang,
      timeoutMs: 20,
      retry: { retries: 0 },
    });
    const err = await c.apps.list().catch((e) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.timedOut).toBe(true);
  });

  it('uploads raw bytes, re-opening a stream body for each attempt', async () => {
    let opened = 0;
    const { fetch, calls } = fakeFetch([problem(503, 'x', 'busy'), json(201, { sha256: 'ab', size: 3 })]);
    const body = () => {
      opened += 1;
      return new Blob([new Uint8Array([1, 2, 3])]).stream();
    };
    const answer = await client(fetch).apps.uploadBundle('app', body, { size: 3 });
    expect(answer).toEqual({ sha256: 'ab', size: 3 });
    expect(opened).toBe(2);
    expect(calls[1]!.method).toBe('PUT');
    expect(calls[1]!.url).toBe('http://api.test:8080/api/v1/apps/app/bundles');
    expect(calls[1]!.headers['content-type']).toBe('application/octet-stream');
    expect(calls[1]!.headers['content-length']).toBe('3');
  });

  it('reports a 2xx with a body that is not JSON as an invalid response', async () => {
    const { fetch } = fakeFetch([new Response('<html>', { status: 200 })]);
    await expect(client(fetch).apps.list()).rejects.toMatchObject({ code: 'invalid_response' });
  });
});
