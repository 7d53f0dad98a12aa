import { describe, expect, it } from 'vitest';
import { encodeEvents } from '../../../src/intake/event-rows.js';
import { deadLetterKey, entryFields, eventStreamKey } from '../../../src/intake/event-stream.js';
import { eventually, storedEvents } from '../support/checks.js';
import { telemetry } from '../support/fleet-traffic.js';
import { call, expectStatus, pushRelease } from '../support/http.js';
import { systemWorld } from '../support/world.js';

const sys = systemWorld({ workers: ['ingest'] });

describe('a poison entry in the event stream', () => {
  it('written straight into the stream while two apps send events: set aside at once, nothing else held up or retried', async () => {
    const { world } = sys;
    const victim = await world.tenant();
    const victimModule = await pushRelease(world.url, victim.owner, victim, '1.0.0');
    const other = await world.tenant();
    const otherModule = await pushRelease(world.url, other.owner, other, '1.0.0');
    const victimEvents = telemetry(world.url, victim.appId, victimModule.id, 2);
    const otherEvents = telemetry(world.url, other.appId, otherModule.id, 2);
    const { deps } = world.ctx;
    const stored = async (appId: string) => (await storedEvents(deps.clickhouse, appId)).ids;
    await eventually('both apps’ events stored', async () =>
      (await stored(victim.appId)) > 0 && (await stored(other.appId)) > 0 ? true : undefined,
    );

    // A row ClickHouse refuses on every version (a tab no writer escaped: one column too many), bypassing
    // the API.
    const encoded = encodeEvents(
      victim.appId,
      Date.now(),
      [{ id: 'poison-1', device_id: 'd', module_id: victimModule.id, type: 'error', message: 'MARK' }],
      90,
    );
    const text = encoded.text.replace('MARK', 'MA\tRK');
    await deps.redis.xadd(
      eventStreamKey(deps.keys),
      '*',
      ...entryFields(victim.appId, Date.now(), { ...encoded, text }),
    );
    const before = await stored(other.appId);
    await eventually('the poison set aside', async () =>
      (await deps.redis.xlen(deadLetterKey(deps.keys))) === 1 ? true : undefined,
    );
    await eventually('the other app’s events still flowing', async () =>
      (await stored(other.appId)) > before ? true : undefined,
    );
    await Promise.all([victimEvents.traffic.stop(), otherEvents.traffic.stop()]);
    expect(victimEvents.traffic.unexpected).toEqual([]);
    expect(otherEvents.traffic.unexpected).toEqual([]);

    await world.expectEachEventOnce(
      other.owner,
      { appId: other.appId, moduleId: otherModule.id },
      otherEvents.state.accepted,
    );
    await world.expectEachEventOnce(
      victim.owner,
      { appId: victim.appId, moduleId: victimModule.id },
      victimEvents.state.accepted,
    );
    const output = world.workerOutput();
    expect(output).toContain('stream entry dead-lettered');
    // Split and set aside in the flush that met it: no insert was ever retried.
    expect(output).not.toContain('will retry');
    const status = expectStatus(
      await call(world.url, 'GET', `/workspaces/${victim.owner.workspaceId}/ingest`, {
        headers: victim.owner.headers,
      }),
      200,
    );
    expect(status.dead_letters).toEqual({ entries: 1, events: 1 });
  });
});
