import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { PresignedLinks } from '../../../src/bundles/blob-links.js';
import type { S3BlobStore } from '../../../src/bundles/s3-blob-store.js';
import { createTestContext, expectProblem, fileContext, type TestContext } from '../../helpers/context.js';
import { testS3Client } from '../../helpers/test-buckets.js';
import { requireEnv } from '../../helpers/test-databases.js';
import { push, sha256Hex, uploadBundle, workspaceWithApp } from '../releases/fixtures.js';
import { settle } from '../updates/seed.js';

/**
 * Downloads with BLOB_STORE=s3: the API answers 302 to the store's URL (presigned, or under
 * BUNDLE_BASE_URL: here the test S3 server's own path to the bucket, which it serves without a signature
 * like a public bucket), and the bytes come from the store.
 */

const presigned = fileContext({ env: { BLOB_STORE: 's3', BUNDLE_URL_TTL_SECONDS: '900' } });
const cdn = fileContext({ env: { BLOB_STORE: 's3', S3_PREFIX: 'edge/' } });

async function stored(ctx: TestContext, bytes: Buffer): Promise<string> {
  const ws = await workspaceWithApp(ctx);
  const res = await uploadBundle(ctx, ws.headers, ws.appId, bytes);
  expect(res.statusCode, res.body).toBe(201);
  return sha256Hex(bytes);
}

describe('objects in the bucket', () => {
  it('are written at <prefix>bundles/<sha256> with their type, as attachments, and immutable caching', async () => {
    const store = presigned.deps.blobs as S3BlobStore;
    const stored = await store.put(Readable.from([randomBytes(3000)]), {
      maxBytes: 1e9,
      contentType: 'application/javascript',
    });
    expect(store.keyOf(stored.sha256)).toBe(`${presigned.config.bundles.s3!.prefix}bundles/${stored.sha256}`);
    const client = testS3Client();
    const head = await client
      .send(new HeadObjectCommand({ Bucket: store.bucket, Key: store.keyOf(stored.sha256) }))
      .finally(() => client.destroy());
    expect(head.ContentType).toBe('application/javascript');
    expect(head.CacheControl).toBe('public, max-age=31536000, immutable');
    // Opened straight from the bucket (BUNDLE_BASE_URL), a browser saves the bytes rather than showing them.
    expect(head.ContentDisposition).toBe('attachment');
    expect(head.ContentLength).toBe(3000);
  });
});

describe('an upload', () => {
  it('reaches the bucket as one PutObject of its content address: no temporary key, no copy', async () => {
    const store = presigned.deps.blobs as S3BlobStore;
    const sent: string[] = [];
    const watch = 'test: commands sent';
    store.client.middlewareStack.add(
      (next, context) => async (args) => {
        const key = (args.input as { Key?: string }).Key ?? '';
        sent.push(`${context.commandName} ${key.replace(store.prefix, '')}`);
        return next(args);
      },
      { step: 'initialize', name: watch },
    );
    try {
      const bytes = randomBytes(6 * 1024 * 1024 + 5);
      const sha256 = await stored(presigned, bytes);
      const writes = sent.filter(
        (c) => !c.startsWith('HeadObjectCommand') && !c.startsWith('GetObjectCommand'),
      );
      expect(writes).toEqual([`PutObjectCommand bundles/${sha256}`]);
      // The same bytes again: found stored, nothing written.
      sent.length = 0;
      await stored(presigned, bytes);
      expect(sent.filter((c) => c.startsWith('PutObjectCommand'))).toEqual([]);
    } finally {
      store.client.middlewareStack.remove(watch);
    }
  });
});

describe('downloads from the bucket', () => {
  it('GET /bundles/{sha256} answers 302 to a presigned URL that serves the bytes', async () => {
    const bytes = randomBytes(40_000);
    const sha256 = await stored(presigned, bytes);
    const res = await presigned.app.inject({ method: 'GET', url: `/api/v1/bundles/${sha256}` });
    expect(res.statusCode).toBe(302);
    expect(res.headers['cache-control']).toBe('private, max-age=0');
    const location = new URL(String(res.headers.location));
    expect(location.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(location.pathname).toContain(`bundles/${sha256}`);
    const fetched = await fetch(location);
    expect(fetched.status).toBe(200);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(bytes)).toBe(true);
    expect(fetched.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expectProblem(
      await presigned.app.inject({ method: 'GET', url: `/api/v1/bundles/${'0'.repeat(64)}` }),
      404,
      'bundle_not_found',
    );
  });

  it('the update check hands out the presigned URL, and its cached answer expires at half its lifetime', async () => {
    const bytes = randomBytes(20_000);
    const ws = await workspaceWithApp(presigned);
    expect((await uploadBundle(presigned, ws.headers, ws.appId, bytes)).statusCode).toBe(201);
    const pushed = await push(presigned, ws.headers, {
      app_id: ws.appId,
      version: '1.0.0',
      sha256: sha256Hex(bytes),
    });
    expect(pushed.statusCode, pushed.body).toBe(201);
    // The push's invalidation has reached this process: the entry the check loads stays.
    await settle(presigned);
    const check = await presigned.app.inject({
      method: 'POST',
      url: '/api/v1/updates/check',
      payload: { app_id: ws.appId, device_id: 'phone' },
    });
    const url = new URL(check.json().update.url);
    expect(url.origin).toBe(new URL(requireEnv('S3_ENDPOINT')).origin);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    const d = url.searchParams.get('X-Amz-Date')!;
    const signedAt = Date.parse(
      `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 11)}:${d.slice(11, 13)}:${d.slice(13)}`,
    );
    expect(presigned.deps.services.routing.peek(ws.appId)?.handOutUntil).toBe(signedAt + 450_000);
    const fetched = await fetch(url);
    expect(Buffer.from(await fetched.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('an Expo asset URL of bytes no release names answers 404, never a link to the bucket', async () => {
    const sha256 = await stored(presigned, randomBytes(3000));
    const res = await presigned.app.inject({ method: 'GET', url: `/api/v1/expo/assets/${sha256}.png` });
    expect(res.statusCode).toBe(404);
    expect(res.headers.location).toBeUndefined();
  });

  it('a presigned URL serves the bytes as a download no browser runs, whatever type was asked', async () => {
    const bytes = Buffer.from('<script>parent.stolen = sessionStorage</script>');
    const sha256 = await stored(presigned, bytes);
    for (const type of ['text/html', 'image/svg+xml', 'application/javascript', undefined]) {
      const fetched = await fetch((await presigned.deps.blobLinks.link(sha256, type))!.url);
      expect(fetched.headers.get('content-type'), type).toBe('application/octet-stream');
      expect(fetched.headers.get('content-disposition'), type).toBe('attachment');
      expect(Buffer.from(await fetched.arrayBuffer()).equals(bytes)).toBe(true);
    }
    const png = await fetch((await presigned.deps.blobLinks.link(sha256, 'image/png'))!.url);
    expect(png.headers.get('content-type')).toBe('image/png');
  });

  it('a presigned URL past its lifetime is refused by the store', async () => {
    const sha256 = await stored(presigned, randomBytes(1000));
    const store = presigned.deps.blobs as S3BlobStore;
    const old = new PresignedLinks(store, 60, () => Date.now() - 61_000);
    const expired = await fetch((await old.link(sha256)).url);
    expect(expired.status).toBe(403);
    const fresh = new PresignedLinks(store, 60);
    expect((await fetch((await fresh.link(sha256)).url)).status).toBe(200);
  });

  it('with BUNDLE_BASE_URL, answers 302 to <base>/<key>', async () => {
    const bytes = randomBytes(5000);
    const sha256 = await stored(cdn, bytes);
    const base = `${requireEnv('S3_ENDPOINT')}/${cdn.config.bundles.s3!.bucket}`;
    const ctx = await createTestContext({
      env: {
        BLOB_STORE: 's3',
        S3_BUCKET: cdn.config.bundles.s3!.bucket,
        S3_PREFIX: 'edge/',
        BUNDLE_BASE_URL: base,
      },
    });
    try {
      const res = await ctx.app.inject({ method: 'GET', url: `/api/v1/bundles/${sha256}` });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(`${base}/edge/bundles/${sha256}`);
      const fetched = await fetch(String(res.headers.location));
      expect(Buffer.from(await fetched.arrayBuffer()).equals(bytes)).toBe(true);
    } finally {
      await ctx.close();
    }
  });
});
