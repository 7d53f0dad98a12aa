import { afterAll, beforeAll, expect, it } from 'vitest';
import { invalidationChannel } from '../../../src/platform/invalidation.js';
import { createRedis, type Redis } from '../../../src/platform/redis.js';
import { expectProblem, fileContext } from '../../helpers/context.js';
import { bundle, push, release, rollback, rollout, setPlan, workspaceWithApp } from './fixtures.js';

let subscriber: Redis;
const messages: unknown[] = [];

const ctx = fileContext();
beforeAll(async () => {
  subscriber = createRedis(ctx.config.redis);
  subscriber.on('message', (_channel, message) => messages.push(JSON.parse(message)));
  await subscriber.subscribe(invalidationChannel(ctx.deps.keys));
});
afterAll(async () => {
  subscriber?.disconnect();
});

/** Publishes from one connection arrive in order, so a marker published last proves all before it came. */
async function drained(): Promise<unknown[]> {
  const marker = { marker: Math.random() };
  await ctx.deps.redis.publish(invalidationChannel(ctx.deps.keys), JSON.stringify(marker));
  await expect.poll(() => messages.some((m) => JSON.stringify(m) === JSON.stringify(marker))).toBe(true);
  const seen = messages.splice(0).filter((m) => JSON.stringify(m) !== JSON.stringify(marker));
  return seen;
}

it('publishes an invalidation for the app after each committed change, and none for a refused one', async () => {
  const ws = await workspaceWithApp(ctx);
  await drained();
  const mine = { appId: ws.appId };

  const fp = () =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/v1/apps/${ws.appId}/fingerprints`,
      headers: ws.headers,
      payload: { fingerprint: 'fp-1' },
    });
  expect((await fp()).statusCode).toBe(201);
  expect(await drained()).toEqual([mine]);
  expect((await fp()).statusCode).toBe(201); // already registered: nothing changed
  expect(await drained()).toEqual([]);

  const r1 = await release(ctx, ws);
  expect(await drained()).toEqual([mine]);

  // Refused: hobby gate, unknown bundle, rollback with no previous release.
  const sha256 = await bundle(ctx, ws.headers, ws.appId);
  expectProblem(await push(ctx, ws.headers, { app_id: ws.appId, version: '2', sha256, rollout_pct: 5 }), 402);
  expectProblem(await push(ctx, ws.headers, { app_id: ws.appId, version: '2', sha256: 'b'.repeat(64) }), 400);
  expectProblem(await rollback(ctx, ws.headers, r1.id), 409);
  expectProblem(await rollout(ctx, ws.headers, r1.id, 50), 402);
  expect(await drained()).toEqual([]);

  await setPlan(ctx, ws.workspaceId, 'pro');
  expect((await rollout(ctx, ws.headers, r1.id, 50)).statusCode).toBe(200);
  expect(await drained()).toEqual([mine]);
  const r2 = await release(ctx, ws, { version: '2' });
  expect((await rollback(ctx, ws.headers, r2.id)).statusCode).toBe(200);
  expect(await drained()).toEqual([mine, mine]);
});
