import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, expectProblem, type TestContext } from '../../helpers/context.js';
import { TcpProxy } from '../../helpers/tcp-proxy.js';
import { createTestBucket } from '../../helpers/test-buckets.js';
import { requireEnv } from '../../helpers/test-databases.js';
import { sha256Hex, uploadBundle, workspaceWithApp } from '../releases/fixtures.js';

/** The bucket behind a proxy the test cuts: readiness says so, uploads answer 503, nothing stored is lost. */
const OPERATOR = 'operator-token-operator-token-operator-token-0123';
let ctx: TestContext;
let proxy: TcpProxy;
let dropBucket: () => Promise<void>;

beforeAll(async () => {
  const endpoint = new URL(requireEnv('S3_ENDPOINT'));
  proxy = new TcpProxy({ host: endpoint.hostname, port: Number(endpoint.port) });
  await proxy.start();
  const bucket = `ota-away-${randomBytes(4).toString('hex')}`;
  dropBucket = await createTestBucket(bucket);
  ctx = await createTestContext({
    env: { BLOB_STORE: 's3', S3_BUCKET: bucket, S3_ENDPOINT: proxy.url, OPERATOR_TOKEN: OPERATOR },
  });
});
afterAll(async () => {
  await ctx?.close();
  await proxy?.stop();
  await dropBucket?.();
});

async function readiness() {
  return ctx.app.inject({ method: 'GET', url: '/readyz', headers: { authorization: `Bearer ${OPERATOR}` } });
}

describe('the bucket unreachable', () => {
  it('is not ready, answers uploads 503 problem+json, and keeps what was stored', async () => {
    const ws = await workspaceWithApp(ctx);
    const kept = randomBytes(50_000);
    expect((await uploadBundle(ctx, ws.headers, ws.appId, kept)).statusCode).toBe(201);
    expect((await readiness()).json()).toMatchObject({ status: 'ready', checks: { blobs: 'ok' } });

    await proxy.stop();
    const down = await readiness();
    expect(down.statusCode).toBe(503);
    expect((down.json() as { checks: Record<string, string> }).checks.blobs).toMatch(/^unreachable/);
    const refused = await uploadBundle(ctx, ws.headers, ws.appId, randomBytes(70_000));
    expectProblem(refused, 503, 'dependency_unavailable');
    expect(refused.headers['retry-after']).toBeDefined();
    const { rows } = await ctx.deps.db.query('SELECT sha256 FROM bundles WHERE app_id = $1', [ws.appId]);
    expect(rows).toEqual([{ sha256: sha256Hex(kept) }]);

    await proxy.start();
    expect((await readiness()).statusCode).toBe(200);
    expect(await ctx.deps.blobs.size(sha256Hex(kept))).toBe(kept.length);
    expect((await uploadBundle(ctx, ws.headers, ws.appId, randomBytes(70_000))).statusCode).toBe(201);
  });
});
