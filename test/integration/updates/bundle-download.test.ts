import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, fileContext } from '../../helpers/context.js';
import { type SeededRelease, seedApp, seedRelease, seedWorkspace } from './seed.js';

let bundle: SeededRelease;
let bytes: Buffer;
const ctx = fileContext();
beforeAll(async () => {
  const appId = await seedApp(ctx, await seedWorkspace(ctx, 'team'));
  bytes = randomBytes(10_000);
  bundle = await seedRelease(ctx, appId, { bytes, writeBlob: true });
});

const get = (sha256: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  ctx.app.inject({ method, url: `/api/v1/bundles/${sha256}`, headers });

describe('bundle download', () => {
  it('serves the bytes with an ETag and immutable caching, without a credential', async () => {
    const res = await get(bundle.sha256);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    expect(res.headers.etag).toBe(`"${bundle.sha256}"`);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(res.headers['accept-ranges']).toBe('bytes');
  });

  it('is the URL the update check hands out', async () => {
    const check = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/updates/check',
      payload: {
        app_id: (await ctx.deps.db.query('SELECT app_id FROM releases LIMIT 1')).rows[0].app_id,
        device_id: 'd',
      },
    });
    const url = new URL(check.json().update.url);
    const res = await ctx.app.inject({ method: 'GET', url: url.pathname });
    expect(res.rawPayload.equals(bytes)).toBe(true);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    for (const header of [`"${bundle.sha256}"`, `W/"${bundle.sha256}"`, `"other", "${bundle.sha256}"`, '*']) {
      const res = await get(bundle.sha256, { 'if-none-match': header });
      expect(res.statusCode).toBe(304);
      expect(res.rawPayload.length).toBe(0);
      expect(res.headers.etag).toBe(`"${bundle.sha256}"`);
    }
    expect((await get(bundle.sha256, { 'if-none-match': '"stale"' })).statusCode).toBe(200);
  });

  it('serves byte ranges with 206 and Content-Range', async () => {
    const cases: Array<[string, number, number]> = [
      ['bytes=0-99', 0, 99],
      ['bytes=9000-', 9000, 9999],
      ['bytes=-500', 9500, 9999],
      ['bytes=9990-20000', 9990, 9999],
    ];
    for (const [range, start, end] of cases) {
      const res = await get(bundle.sha256, { range });
      expect(res.statusCode).toBe(206);
      expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${bytes.length}`);
      expect(res.headers['content-length']).toBe(String(end - start + 1));
      expect(res.rawPayload.equals(bytes.subarray(start, end + 1))).toBe(true);
    }
  });

  it('answers 416 to a range past the end, and ignores ranges it does not serve', async () => {
    const past = await get(bundle.sha256, { range: 'bytes=10000-' });
    expectProblem(past, 416, 'range_not_satisfiable');
    expect(past.headers['content-range']).toBe(`bytes */${bytes.length}`);
    for (const range of ['bytes=0-1,5-6', 'items=0-5', 'bytes=abc', 'bytes=50-10']) {
      const res = await get(bundle.sha256, { range });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.length).toBe(bytes.length);
    }
  });

  it('honours If-Range: a stale validator gets the whole bundle', async () => {
    const fresh = await get(bundle.sha256, { range: 'bytes=0-9', 'if-range': `"${bundle.sha256}"` });
    expect(fresh.statusCode).toBe(206);
    const stale = await get(bundle.sha256, { range: 'bytes=0-9', 'if-range': '"old"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.length).toBe(bytes.length);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await get(bundle.sha256, {}, 'HEAD');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(res.headers.etag).toBe(`"${bundle.sha256}"`);
    expect(res.rawPayload.length).toBe(0);
  });

  it('answers 404 for a bundle not in the store and 400 for a malformed hash', async () => {
    expectProblem(await get('0'.repeat(64)), 404, 'bundle_not_found');
    for (const bad of [
      'abc',
      'G'.repeat(64),
      bundle.sha256.toUpperCase(),
      `${bundle.sha256}0`,
      '..%2F..%2Fetc',
    ]) {
      expectProblem(await get(bad), 400, 'invalid_request');
    }
  });
});
