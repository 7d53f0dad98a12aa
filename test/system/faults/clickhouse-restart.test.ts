import { describe, expect, it } from 'vitest';
import { eventually, storedEvents, streamBacklog } from '../support/checks.js';
import { telemetry } from '../support/fleet-traffic.js';
import { call, expectStatus, pushRelease } from '../support/http.js';
import { PrivateClickHouse } from '../support/private-clickhouse.js';
import { systemWorld } from '../support/world.js';

const sys = systemWorld({
  server: () => PrivateClickHouse.start(),
  env: (clickhouse) => ({ CLICKHOUSE_URL: clickhouse.url }),
  workers: ['ingest,spikes'],
});

describe('ClickHouse stopped and restarted', () => {
  it('keeps accepting events while it is away, answers analytics 503, and stores every event once when it is back', async () => {
    const { world, server: clickhouse } = sys;
    const { owner, appId, sha256 } = await world.tenant();
    const module = await pushRelease(world.url, owner, { appId, sha256 }, '1.0.0');
    const analytics = () => call(world.url, 'GET', `/apps/${appId}/stats`, { headers: owner.headers });
    const events = telemetry(world.url, appId, module.id);

    // A clean stop (SIGTERM), then a crash (SIGKILL) in the middle of the worker's inserts.
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      // Killed while the worker is inserting: events of this run reach ClickHouse first.
      const stored = (await storedEvents(world.ctx.deps.clickhouse, appId)).ids;
      await eventually('events stored while ClickHouse is up', async () =>
        (await storedEvents(world.ctx.deps.clickhouse, appId)).ids > stored ? true : undefined,
      );
      await clickhouse.kill(signal);
      const acceptedBefore = events.state.accepted;
      // Device events never wait on ClickHouse: they are still taken while it is away, and wait in the
      // stream.
      await eventually('events taken and waiting in the stream while ClickHouse is away', async () =>
        events.state.accepted > acceptedBefore && (await streamBacklog(world.ctx.deps)).length > 0
          ? true
          : undefined,
      );
      const down = await analytics();
      expect(down.status).toBe(503);
      expect(down.type).toMatch(/^application\/problem\+json/);
      expect(down.headers.get('retry-after')).toBeTruthy();
      await clickhouse.restart();
    }
    const acceptedAtRestart = events.state.accepted;
    await eventually('events taken after the restart', async () =>
      events.state.accepted > acceptedAtRestart ? true : undefined,
    );
    await events.traffic.stop();
    expect(events.traffic.unexpected).toEqual([]);

    await world.expectEachEventOnce(
      owner,
      { appId, moduleId: module.id },
      events.state.accepted,
      world.url,
      90_000,
    );
    expect(expectStatus(await analytics(), 200).series.length).toBeGreaterThan(0);
  });
});
