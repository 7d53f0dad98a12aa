import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, fileContext } from '../../helpers/context.js';
import { temporaryUploads } from '../../helpers/test-buckets.js';
import { sha256Hex, uploadBundle, workspaceWithApp } from './fixtures.js';

const MAX = 6 * 1024 * 1024;
let base: string;

const ctx = fileContext({ env: { BUNDLE_MAX_BYTES: String(MAX) } });
beforeAll(async () => {
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});

/** Every stored blob (disk files or bucket objects, as the run's store lists them). */
async function blobFiles(): Promise<string[]> {
  const out: string[] = [];
  for await (const blob of ctx.deps.blobs.list()) out.push(blob.sha256);
  return out.sort();
}

/** What unfinished uploads left where a reader could see it (`.tmp` files, or `uploads/` objects). */
async function tmpFiles(): Promise<string[]> {
  return temporaryUploads(ctx.config);
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function bundleRows(appId: string) {
  const { rows } = await ctx.deps.db.query('SELECT sha256, size FROM bundles WHERE app_id = $1', [appId]);
  return rows;
}

/**
 * A real HTTP upload, by default with chunked transfer encoding (no Content-Length) so the server learns the
 * size only as the bytes arrive. Stops sending once the answer is in.
 */
function streamUpload(
  path: string,
  headers: Record<string, string>,
  totalBytes: number,
  declareLength = false,
  chunk = 64 * 1024,
): Promise<{ status: number; body: string; sent: number; bytes: Buffer }> {
  const pieces: Buffer[] = [];
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = request(`${base}${path}`, {
      method: 'PUT',
      headers: {
        ...headers,
        'content-type': 'application/octet-stream',
        ...(declareLength ? { 'content-length': String(totalBytes) } : { 'transfer-encoding': 'chunked' }),
      },
    });
    req.on('response', (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => {
        // Stop sending: the server has answered; it would otherwise wait a moment for the rest.
        req.destroy();
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(parts).toString(),
          sent,
          bytes: Buffer.concat(pieces),
        });
      });
    });
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    const pump = () => {
      while (!answered && sent < totalBytes) {
        const piece = randomBytes(Math.min(chunk, totalBytes - sent));
        pieces.push(piece);
        sent += piece.length;
        if (!req.write(piece)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    pump();
  });
}

describe('bundle upload', () => {
  it('stores a multi-megabyte body under its sha256 and answers {sha256, size}', async () => {
    const ws = await workspaceWithApp(ctx);
    const bytes = randomBytes(5 * 1024 * 1024 + 123);
    const res = await uploadBundle(ctx, ws.headers, ws.appId, bytes);
    expect(res.statusCode, res.body).toBe(201);
    const sha256 = sha256Hex(bytes);
    expect(res.json()).toEqual({ sha256, size: bytes.length });
    expect((await readAll(ctx.deps.blobs.createReadStream(sha256))).equals(bytes)).toBe(true);
    expect(await bundleRows(ws.appId)).toEqual([{ sha256, size: bytes.length }]);
    expect(await ctx.deps.blobs.size(sha256)).toBe(bytes.length);
  });

  it('streams a chunked multi-megabyte upload over a real connection', async () => {
    const ws = await workspaceWithApp(ctx);
    const res = await streamUpload(`/api/v1/apps/${ws.appId}/bundles`, ws.headers, 5 * 1024 * 1024 + 7);
    expect(res.status, res.body).toBe(201);
    expect(JSON.parse(res.body)).toEqual({ sha256: sha256Hex(res.bytes), size: res.bytes.length });
  });

  it('stores the same bytes once, and answers the same for a repeat and for another app', async () => {
    const a = await workspaceWithApp(ctx);
    const b = await workspaceWithApp(ctx);
    const bytes = randomBytes(300_000);
    const before = await blobFiles();
    const first = await uploadBundle(ctx, a.headers, a.appId, bytes);
    const second = await uploadBundle(ctx, a.headers, a.appId, bytes);
    const third = await uploadBundle(ctx, b.headers, b.appId, bytes);
    expect([first.statusCode, second.statusCode, third.statusCode]).toEqual([201, 201, 201]);
    expect(second.json()).toEqual(first.json());
    expect(third.json()).toEqual(first.json());
    const after = await blobFiles();
    expect(after.length - before.length).toBe(1);
    expect(await bundleRows(a.appId)).toHaveLength(1);
    expect(await bundleRows(b.appId)).toHaveLength(1);
    expect(await tmpFiles()).toEqual([]);
  });

  it('refuses a declared size over the limit with 413 before reading it', async () => {
    const ws = await workspaceWithApp(ctx);
    const before = await blobFiles();
    const res = await uploadBundle(ctx, ws.headers, ws.appId, randomBytes(MAX + 1));
    const problem = expectProblem(res, 413, 'payload_too_large');
    expect(problem.detail).toContain(String(MAX));
    expect(await blobFiles()).toEqual(before);
    expect(await tmpFiles()).toEqual([]);
    expect(await bundleRows(ws.appId)).toEqual([]);
  });

  it('stops a chunked upload at the limit with 413 on the same connection, leaving nothing behind', async () => {
    const ws = await workspaceWithApp(ctx);
    const before = await blobFiles();
    const res = await streamUpload(`/api/v1/apps/${ws.appId}/bundles`, ws.headers, MAX * 4);
    expect(res.status, res.body).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ status: 413, code: 'payload_too_large' });
    // How much the client managed to send before the answer depends on timing (the server drains a refused
    // body for a while to answer on the same connection), so only the outcome is asserted.
    expect(await blobFiles()).toEqual(before);
    expect(await tmpFiles()).toEqual([]);
    expect(await bundleRows(ws.appId)).toEqual([]);
  });

  it('answers a declared over-limit upload with 413 while the client is still sending', async () => {
    const ws = await workspaceWithApp(ctx);
    const res = await streamUpload(`/api/v1/apps/${ws.appId}/bundles`, ws.headers, MAX * 4, true);
    expect(res.status, res.body).toBe(413);
    expect(res.sent).toBeLessThan(MAX * 4);
    expect(await bundleRows(ws.appId)).toEqual([]);
  });

  it('accepts exactly the limit', async () => {
    const ws = await workspaceWithApp(ctx);
    const res = await uploadBundle(ctx, ws.headers, ws.appId, randomBytes(MAX));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().size).toBe(MAX);
  });

  it('refuses other content types (415) and an empty body (400)', async () => {
    const ws = await workspaceWithApp(ctx);
    const url = `/api/v1/apps/${ws.appId}/bundles`;
    const json = await ctx.app.inject({ method: 'PUT', url, headers: ws.headers, payload: { a: 1 } });
    expectProblem(json, 415, 'unsupported_media_type');
    const text = await ctx.app.inject({
      method: 'PUT',
      url,
      headers: { ...ws.headers, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expectProblem(text, 415, 'unsupported_media_type');
    const none = await ctx.app.inject({ method: 'PUT', url, headers: ws.headers });
    expectProblem(none, 415, 'unsupported_media_type');
    const empty = await uploadBundle(ctx, ws.headers, ws.appId, Buffer.alloc(0));
    expectProblem(empty, 400, 'empty_bundle');
    expect(await bundleRows(ws.appId)).toEqual([]);
  });

  it('stores nothing for a refused empty upload, declared or chunked', async () => {
    const ws = await workspaceWithApp(ctx);
    const emptySha = sha256Hex(Buffer.alloc(0));
    const declared = await uploadBundle(ctx, ws.headers, ws.appId, Buffer.alloc(0));
    expectProblem(declared, 400, 'empty_bundle');
    const chunked = await streamUpload(`/api/v1/apps/${ws.appId}/bundles`, ws.headers, 0);
    expect(chunked.status, chunked.body).toBe(400);
    expect(JSON.parse(chunked.body).code).toBe('empty_bundle');
    expect(await ctx.deps.blobs.has(emptySha)).toBe(false);
    expect(await bundleRows(ws.appId)).toEqual([]);
  });
});
