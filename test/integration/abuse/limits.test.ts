import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileContext } from '../../helpers/context.js';
import { lyingZip, zerosZip } from '../../helpers/zip-bombs.js';
import { rawRequest } from './raw-http.js';
import { assertProblem, type Covered, coveredRoutes, send, urlOf } from './routes.js';
import { Tenant } from './tenant.js';

const BODY_LIMIT = 16_384;
const BUNDLE_LIMIT = 65_536;

let t: Tenant;
let port: number;
let withBody: Covered[];

const ctx = fileContext({
  env: { BODY_LIMIT_BYTES: String(BODY_LIMIT), BUNDLE_MAX_BYTES: String(BUNDLE_LIMIT) },
});
beforeAll(async () => {
  t = await Tenant.create(ctx);
  withBody = (await coveredRoutes(ctx.app)).filter((r) => r.jsonBody);
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  port = (ctx.app.server.address() as AddressInfo).port;
});

/** A JSON object of exactly `bytes` bytes. */
const jsonOf = (bytes: number) => `{"pad":"${'x'.repeat(bytes - 10)}"}`;

describe('oversized bodies', () => {
  it('are refused with 413 problem+json on every route with a JSON body, from one byte over the limit', async () => {
    expect(withBody.length).toBeGreaterThan(5);
    const failures: string[] = [];
    for (const route of withBody) {
      const req = await route.policy.request(t);
      const headers = route.policy.access === 'public' ? {} : t.owner.headers;
      for (const size of [BODY_LIMIT, BODY_LIMIT + 1, BODY_LIMIT * 20]) {
        const res = await ctx.app.inject({
          method: route.method as 'POST',
          url: urlOf(route.path, req),
          headers: { ...headers, 'content-type': 'application/json' },
          payload: jsonOf(size),
        });
        const what = `${route.key} with ${size} bytes`;
        try {
          // At the limit the body is read (and refused for its content, not its size).
          if (size === BODY_LIMIT) assertProblem(res, [400], what);
          else assertProblem(res, [413], what, { code: 'payload_too_large' });
        } catch (err) {
          failures.push((err as Error).message);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('asks for a credential before reading a body on a control route (401 before 413)', async () => {
    const route = withBody.find((r) => r.policy.access === 'control')!;
    const req = await route.policy.request(t);
    const res = await ctx.app.inject({
      method: route.method as 'POST',
      url: urlOf(route.path, req),
      headers: { 'content-type': 'application/json' },
      payload: jsonOf(BODY_LIMIT * 2),
    });
    assertProblem(res, [401], route.key);
  });

  it('refuses a chunked body (no Content-Length) once it passes the limit', async () => {
    const head =
      'POST /api/v1/auth/signin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      'Transfer-Encoding: chunked\r\n\r\n';
    const piece = 'x'.repeat(4096);
    const chunks = ['{"email":"a@example.com","password":"', ...Array(8).fill(piece), '"}'].map(
      (c) => `${Buffer.byteLength(c).toString(16)}\r\n${c}\r\n`,
    );
    const answer = await rawRequest(port, head, [...chunks, '0\r\n\r\n']);
    expect(answer.status, answer.body).toBe(413);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(answer.body).code).toBe('payload_too_large');
  });

  it('refuses a bundle over BUNDLE_MAX_BYTES with 413 problem+json', async () => {
    const route = { method: 'PUT', path: '/api/v1/apps/{app_id}/bundles' };
    const params = { app_id: (await t.app()).id };
    const over = await send(ctx.app, route, { params, raw: Buffer.alloc(BUNDLE_LIMIT + 1) }, t.owner.headers);
    assertProblem(over, [413], 'bundle over the limit', { code: 'payload_too_large' });
    const at = await send(ctx.app, route, { params, raw: Buffer.alloc(BUNDLE_LIMIT, 1) }, t.owner.headers);
    expect(at.statusCode, at.body).toBe(201);
  });

  it('refuses a zip whose files inflate past BUNDLE_MAX_UNZIPPED_BYTES (4 × BUNDLE_MAX_BYTES) with 400, whatever its headers claim', async () => {
    const route = { method: 'PUT', path: '/api/v1/apps/{app_id}/bundles' };
    const params = { app_id: (await t.app()).id };
    const unzipLimit = 4 * BUNDLE_LIMIT;
    const put = async (raw: Buffer) => send(ctx.app, route, { params, raw }, t.owner.headers);
    const storedBlobs = async () => {
      const out: string[] = [];
      for await (const blob of ctx.deps.blobs.list()) out.push(blob.sha256);
      return out.sort();
    };
    const before = await storedBlobs();
    for (const [what, bomb] of [
      ['a zip of zeros one byte over', await zerosZip(unzipLimit + 1)],
      ['a zip claiming 100 bytes that inflates to 1 MiB', await lyingZip(1024 ** 2, 100)],
    ] as const) {
      expect(bomb.length).toBeLessThan(BUNDLE_LIMIT);
      assertProblem(await put(bomb), [400], what, { code: 'bundle_too_large_unzipped' });
    }
    // Refused before it was stored: a bomb never reaches the store, not even for the sweep to remove.
    expect(await storedBlobs()).toEqual(before);
    const at = await put(await zerosZip(unzipLimit));
    expect(at.statusCode, at.body).toBe(201);
  });
});

describe('oversized headers, on a listening server', () => {
  const get = (headers: string) =>
    rawRequest(port, `GET /api/v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`);

  it.each([
    ['one 64 KB header', `X-Padding: ${'a'.repeat(64 * 1024)}\r\n`],
    ['a 64 KB bearer token', `Authorization: Bearer ${'a'.repeat(64 * 1024)}\r\n`],
    ['a 64 KB API key', `X-API-Key: ${'a'.repeat(64 * 1024)}\r\n`],
    ['4,000 small headers', Array.from({ length: 4000 }, (_, i) => `X-H${i}: v\r\n`).join('')],
  ])('answers %s with 431 problem+json', async (_name, headers) => {
    const answer = await get(headers);
    expect([431, 400]).toContain(answer.status);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    const body = JSON.parse(answer.body);
    expect(body).toMatchObject({ status: answer.status, code: 'headers_too_large' });
  });

  it('answers a 64 KB URL without a 5xx', async () => {
    const answer = await rawRequest(
      port,
      `GET /api/v1/apps?x=${'a'.repeat(64 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    expect([400, 414, 431]).toContain(answer.status);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('still reads a large but allowed header: an 8 KB token is refused as a token (401)', async () => {
    const answer = await get(`Authorization: Bearer ${'a'.repeat(8 * 1024)}\r\n`);
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body).code).toBe('invalid_token');
  });

  it('answers bytes that are not HTTP with 400 problem+json', async () => {
    const answer = await rawRequest(port, 'HELLO THERE\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});
