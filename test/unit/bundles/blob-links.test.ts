import { S3Client } from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it } from 'vitest';
import { BaseUrlLinks, PresignedLinks } from '../../../src/bundles/blob-links.js';

/** The TTL rule of API.md "Bundle storage", on our side: the local S3 server cannot tell us. */
const client = new S3Client({
  region: 'us-east-1',
  endpoint: 'http://127.0.0.1:9',
  forcePathStyle: true,
  credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
});
afterAll(() => client.destroy());
const SHA = 'ab'.repeat(32);
const store = { client, bucket: 'bundles', keyOf: (sha: string) => `p/bundles/${sha}` };

function clock(start: number) {
  const c = { t: start, now: () => c.t };
  return c;
}

/** X-Amz-Date and X-Amz-Expires of a presigned URL, as epoch ms of signing and seconds of validity. */
function signedAt(url: string): { at: number; expires: number } {
  const q = new URL(url).searchParams;
  const d = q.get('X-Amz-Date')!;
  const at = Date.UTC(
    +d.slice(0, 4),
    +d.slice(4, 6) - 1,
    +d.slice(6, 8),
    +d.slice(9, 11),
    +d.slice(11, 13),
    +d.slice(13, 15),
  );
  return { at, expires: Number(q.get('X-Amz-Expires')) };
}

describe('presigned download URLs', () => {
  it('are GETs of the key, valid BUNDLE_URL_TTL_SECONDS from now, handed out until half of that', async () => {
    const c = clock(Date.UTC(2026, 0, 1, 12, 0, 0));
    const links = new PresignedLinks(store, 3600, c.now);
    const link = await links.link(SHA);
    const url = new URL(link.url);
    expect(url.pathname).toBe(`/bundles/p/bundles/${SHA}`);
    expect(signedAt(link.url)).toEqual({ at: c.t, expires: 3600 });
    expect(link.handOutUntil).toBe(c.t + 1_800_000);
  });

  it('reuse a URL while three quarters of its life is left, then sign a new one', async () => {
    const c = clock(Date.UTC(2026, 0, 1, 12, 0, 0));
    const start = c.t;
    const links = new PresignedLinks(store, 3600, c.now);
    const first = await links.link(SHA);
    c.t += 900_000; // a quarter
    const again = await links.link(SHA);
    expect(again).toEqual(first);
    // Whoever takes it now still has a quarter of its life to hand it out.
    expect(again.handOutUntil - c.t).toBe(900_000);
    c.t += 1;
    const fresh = await links.link(SHA);
    expect(fresh.url).not.toBe(first.url);
    expect(signedAt(fresh.url).at).toBe(Math.floor((start + 900_001) / 1000) * 1000);
    expect(fresh.handOutUntil).toBe(signedAt(fresh.url).at + 1_800_000);
  });

  it('never hands out a URL with less than half its lifetime left, whatever the clock does', async () => {
    const c = clock(Date.UTC(2026, 0, 1, 12, 0, 0));
    const links = new PresignedLinks(store, 600, c.now);
    for (let step = 0; step < 50; step++) {
      c.t += 37_123;
      const link = await links.link(SHA);
      const { at, expires } = signedAt(link.url);
      expect(at + expires * 1000 - c.t).toBeGreaterThanOrEqual((expires * 1000) / 2);
      expect(link.handOutUntil).toBe(at + (expires * 1000) / 2);
    }
  });

  it('name the content type to serve, never one a browser would run as a page', async () => {
    const links = new PresignedLinks(store, 3600);
    const png = new URL((await links.link(SHA, 'image/png')).url);
    expect(png.searchParams.get('response-content-type')).toBe('image/png');
    for (const active of ['text/html', 'image/svg+xml', 'application/xhtml+xml']) {
      const url = new URL((await links.link(SHA, active)).url);
      expect(url.searchParams.get('response-content-type')).toBe('application/octet-stream');
    }
  });
});

describe('CDN download URLs (BUNDLE_BASE_URL)', () => {
  it('are <base>/<key> and never expire', async () => {
    const link = await new BaseUrlLinks('https://cdn.example.com/ota', store).link(SHA);
    expect(link).toEqual({
      url: `https://cdn.example.com/ota/p/bundles/${SHA}`,
      handOutUntil: Number.POSITIVE_INFINITY,
    });
  });
});
