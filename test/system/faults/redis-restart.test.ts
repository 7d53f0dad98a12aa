import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedEvents, waitBacklogDrained, waitDeliveredOnceEach } from '../support/checks.js';
import { pushes, telemetry } from '../support/fleet-traffic.js';
import { appWithBundle, call, expectStatus, registerWebhook, signUpAt } from '../support/http.js';
import { PrivateRedis } from '../support/private-redis.js';
import { sleep } from '../support/traffic.js';
import { World } from '../support/world.js';

let redis: PrivateRedis;
let world: World;

beforeAll(async () => {
  redis = await PrivateRedis.start();
  // Retries wait 1.5 s, so retry jobs sit delayed in Redis when it dies.
  world = await World.start({
    REDIS_URL: redis.url,
    WEBHOOK_RETRY_BASE_MS: '1500',
    WEBHOOK_RETRY_MAX_DELAY_MS: '3000',
  });
  await world.startApi();
  world.startWorkers();
}, 120_000);

afterAll(async () => {
  await world?.close();
  await redis?.close();
});

describe('Redis killed and restarted (AOF)', () => {
  it('loses no accepted event and no webhook delivery that was queued, running or waiting to retry', async () => {
    const owner = await signUpAt(world.url);
    const { appId, sha256 } = await appWithBundle(world.url, owner);
    const hook = await registerWebhook(world.url, owner, world.receiver.url('/hook'), ['release.pushed']);
    world.receiver.expect('/hook', hook.secret);
    // The first try of each delivery fails (a retry is scheduled); the second is answered slowly.
    const tried = new Set<string>();
    world.receiver.fallback = (headers) => {
      const id = String(headers['x-service-delivery']);
      if (tried.has(id)) return { status: 200, delayMs: 300 };
      tried.add(id);
      return { status: 503 };
    };
    const module = expectStatus(
      await call(world.url, 'POST', '/modules', {
        headers: owner.headers,
        body: { app_id: appId, version: '1.0.0', sha256 },
      }),
      201,
    );

    const events = telemetry(world.url, appId, module.id);
    const releases = pushes(world.url, owner, appId, sha256, 150);
    await sleep(2000);
    await redis.kill('SIGKILL');
    await sleep(2500);
    await redis.restart();
    await sleep(2500);
    await Promise.all([events.traffic.stop(), releases.traffic.stop()]);

    // While Redis was away the API said so (503 problem+json), never a 500.
    expect(events.traffic.unexpected).toEqual([]);
    expect(releases.traffic.unexpected).toEqual([]);
    expect(events.traffic.of(503)).toBeGreaterThan(0);
    expect(events.state.accepted).toBeGreaterThan(0);

    // Every event the API accepted is stored once and counted once.
    await waitBacklogDrained(world.ctx.deps, () => world.workerOutput().slice(-3000), 60_000);
    expect((await storedEvents(world.ctx.deps.clickhouse, appId)).ids).toBe(events.state.accepted);
    const stats = expectStatus(
      await call(world.url, 'GET', `/modules/${module.id}`, { headers: owner.headers }),
      200,
    ).stats;
    expect(stats.activations).toBe(events.state.accepted);

    // Every pushed release was delivered, each delivery id exactly once, without the 60 s sweeper's help.
    const report = await waitDeliveredOnceEach(
      world.ctx.deps,
      world.receiver,
      { id: hook.id, path: '/hook' },
      releases.pushed.length + 1,
    );
    expect(report.unverified).toBe(0);
    expect(world.workerOutput()).not.toContain('re-enqueued overdue deliveries');
  }, 180_000);
});
