import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedEvents, streamBacklog, waitBacklogDrained } from '../support/checks.js';
import { telemetry } from '../support/fleet-traffic.js';
import { appWithBundle, call, expectStatus, signUpAt } from '../support/http.js';
import { PrivateClickHouse } from '../support/private-clickhouse.js';
import { sleep } from '../support/traffic.js';
import { World } from '../support/world.js';

let clickhouse: PrivateClickHouse;
let world: World;

beforeAll(async () => {
  clickhouse = await PrivateClickHouse.start();
  world = await World.start({ CLICKHOUSE_URL: clickhouse.url });
  await world.startApi();
  world.startWorkers('ingest,spikes');
}, 120_000);

afterAll(async () => {
  await world?.close();
  await clickhouse?.close();
});

describe('ClickHouse stopped and restarted', () => {
  it('keeps accepting events while it is away, answers analytics 503, and stores every event once when it is back', async () => {
    const owner = await signUpAt(world.url);
    const { appId, sha256 } = await appWithBundle(world.url, owner);
    const module = expectStatus(
      await call(world.url, 'POST', '/modules', {
        headers: owner.headers,
        body: { app_id: appId, version: '1.0.0', sha256 },
      }),
      201,
    );
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

    await waitBacklogDrained(world.ctx.deps, () => world.workerOutput().slice(-3000), 90_000);
    expect((await storedEvents(world.ctx.deps.clickhouse, appId)).ids).toBe(events.state.accepted);
    const stats = expectStatus(
      await call(world.url, 'GET', `/modules/${module.id}`, { headers: owner.headers }),
      200,
    ).stats;
    expect(stats.activations).toBe(events.state.accepted);
    expect(expectStatus(await analytics(), 200).series.length).toBeGreaterThan(0);
  });
});
