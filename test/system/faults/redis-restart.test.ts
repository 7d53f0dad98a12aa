import { describe, expect, it } from 'vitest';
import { eventually, waitDeliveredOnceEach } from '../support/checks.js';
import { pushes, telemetry } from '../support/fleet-traffic.js';
import { pushRelease } from '../support/http.js';
import { PrivateRedis } from '../support/private-redis.js';
import { systemWorld } from '../support/world.js';

// Retries wait 1.5 s, so retry jobs sit delayed in Redis when it dies.
const sys = systemWorld({
  server: () => PrivateRedis.start(),
  env: (redis) => ({
    REDIS_URL: redis.url,
    WEBHOOK_RETRY_BASE_MS: '1500',
    WEBHOOK_RETRY_MAX_DELAY_MS: '3000',
  }),
});

describe('Redis killed and restarted (AOF)', () => {
  it('loses no accepted event and no webhook delivery that was queued, running or waiting to retry', async () => {
    const { world, server: redis } = sys;
    const { owner, appId, sha256 } = await world.tenant();
    const hook = await world.hook(owner, '/hook', ['release.pushed']);
    // The first try of each delivery fails (a retry is scheduled); the second is answered slowly.
    const tried = new Set<string>();
    world.receiver.fallback = (headers) => {
      const id = String(headers['x-service-delivery']);
      if (tried.has(id)) return { status: 200, delayMs: 300 };
      tried.add(id);
      return { status: 503 };
    };
    const module = await pushRelease(world.url, owner, { appId, sha256 }, '1.0.0');

    const events = telemetry(world.url, appId, module.id);
    const releases = pushes(world.url, owner, appId, sha256, 150);
    // Killed once events flow and deliveries wait in Redis for their retry (failed once, retry delayed).
    const waiting = await eventually('deliveries waiting for their retry', async () => {
      const { rows } = await world.ctx.deps.db.query<{ id: string }>(
        `SELECT id FROM webhook_deliveries WHERE webhook_id = $1 AND status = 'pending' AND attempts >= 1`,
        [hook.id],
      );
      return events.state.accepted > 0 && rows.length > 0 ? rows.map((r) => r.id) : undefined;
    });
    await redis.kill('SIGKILL');
    const refusedBefore = events.traffic.of(503);
    await eventually('the API answering 503 while Redis is away', async () =>
      events.traffic.of(503) > refusedBefore ? true : undefined,
    );
    await redis.restart();
    const [accepted, pushed] = [events.state.accepted, releases.pushed.length];
    await eventually('events and pushes taken again after the restart', async () =>
      events.state.accepted > accepted && releases.pushed.length > pushed ? true : undefined,
    );
    await Promise.all([events.traffic.stop(), releases.traffic.stop()]);

    // While Redis was away the API said so (503 problem+json), never a 500.
    expect(events.traffic.unexpected).toEqual([]);
    expect(releases.traffic.unexpected).toEqual([]);
    expect(events.traffic.of(503)).toBeGreaterThan(0);
    expect(events.state.accepted).toBeGreaterThan(0);

    // Every event the API accepted is stored once and counted once.
    await world.expectEachEventOnce(owner, { appId, moduleId: module.id }, events.state.accepted);

    // Every pushed release was delivered, each delivery id exactly once, without the 60 s sweeper's help.
    const report = await waitDeliveredOnceEach(
      world.ctx.deps,
      world.receiver,
      hook,
      releases.pushed.length + 1,
      60_000,
      () => world.workerOutput(),
    );
    expect(report.unverified).toBe(0);
    // Among them the ones whose retry sat in Redis when it died: the retry survived in the AOF.
    expect(waiting.every((id) => report.received.get(id) === 1)).toBe(true);
    expect(world.workerOutput()).not.toContain('re-enqueued overdue deliveries');
  }, 180_000);
});
