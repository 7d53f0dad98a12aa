import { describe, expect, it } from 'vitest';
import { streamBacklog } from '../support/checks.js';
import { telemetry } from '../support/fleet-traffic.js';
import { call, expectStatus, pushRelease } from '../support/http.js';
import { PrivateClickHouse } from '../support/private-clickhouse.js';
import { sleep } from '../support/traffic.js';
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
      await sleep(1500);
      await clickhouse.kill(signal);
      const acceptedBefore = events.state.accepted;
      await sleep(2500);
      // Device events never wait on ClickHouse: they are still taken while it is away.
      expect(events.state.accepted).toBeGreaterThan(acceptedBefore);
      const down = await analytics();
      expect(down.status).toBe(503);
      expect(down.type).toMatch(/^application\/problem\+json/);
      expect(down.headers.get('retry-after')).toBeTruthy();
      expect((await streamBacklog(world.ctx.deps)).length).toBeGreaterThan(0);
      await clickhouse.restart();
    }
    await sleep(1500);
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
