import { describe, expect, it } from 'vitest';
import { FailureReporters } from '../../../src/edge/failure-reporters.js';
import { recordChecks } from '../../../src/intake/check-recorder.js';
import { createEventIngestService, type DeviceEventInput } from '../../../src/intake/events.service.js';
import type { AppRoute } from '../../../src/routing/routing.types.js';
import { rowsOf } from '../../helpers/event-rows.js';
import { createFakeStores } from '../../helpers/fakes.js';

const KNOWN = '0b6f3d1e-5c1a-4f7e-9a1b-2c3d4e5f6a7b';
const PUSHED_LATER = '7c1e2d3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';

function route(modules: string[]): AppRoute {
  return {
    appId: 'app-1',
    workspaceId: 'ws-1',
    plan: 'team',
    channels: new Map(),
    modules: new Set(modules),
    answers: new Map(),
  };
}

/**
 * The intake on the fake stream, with a routing stand-in: `cached` is what the cache holds, `reloaded`
 * what a fresh load from the database answers (a release may have been pushed since).
 */
function intake(cached: AppRoute | null, reloaded: AppRoute | null = cached) {
  const stores = createFakeStores();
  const loads: string[] = [];
  const routing = {
    peek: () => cached,
    load: async (appId: string) => {
      loads.push(appId);
      return reloaded;
    },
    fresh: async (appId: string) => {
      loads.push(appId);
      return reloaded;
    },
  };
  const service = createEventIngestService(stores, {
    routing,
    retentionDays: 30,
    reporters: new FailureReporters({ devicesPerAddress: 3, now: () => stores.clock.now }),
    now: () => stores.clock.now,
  });
  const rowsOfBatch = (n: number) => rowsOf(stores.events.batches[n]!.encoded.text);
  return { service, stores, loads, rowsOf: rowsOfBatch };
}

const event = (
  id: string,
  module_id: DeviceEventInput['module_id'],
  type: DeviceEventInput['type'] = 'download',
) => ({
  id,
  device_id: `device-${id}`,
  module_id,
  type,
});

const CLIENT = { ip: '198.51.100.7' };

describe('device event intake', () => {
  it('accepts events of known modules and of the embedded bundle, in one append to the stream', async () => {
    const { service, stores, rowsOf } = intake(route([KNOWN]));
    const result = await service.accept(
      'app-1',
      [
        event('e1', KNOWN, 'activation'),
        event('e2', KNOWN.toUpperCase()),
        event('e3', null),
        event('e4', ''),
        event('e5', undefined, 'error'),
      ],
      CLIENT,
    );

    expect(result).toEqual({ accepted: 5, refused: [] });
    expect(stores.events.batches).toHaveLength(1);
    expect(stores.events.batches[0]).toMatchObject({ appId: 'app-1', receivedMs: stores.clock.now });
    expect(rowsOf(0).map((r) => [r.device_id, r.module_id, r.type])).toEqual([
      ['device-e1', KNOWN, 'activation'],
      ['device-e2', KNOWN, 'download'],
      ['device-e3', '', 'download'],
      ['device-e4', '', 'download'],
      ['device-e5', '', 'error'],
    ]);
  });

  it('refuses each event naming a module the app does not have, and keeps the good events of the batch', async () => {
    const { service, stores, rowsOf } = intake(route([KNOWN]));
    const result = await service.accept(
      'app-1',
      [
        event('good-1', KNOWN),
        event('bad-1', 'not-a-release'),
        event('good-2', null),
        event('bad-2', PUSHED_LATER),
      ],
      CLIENT,
    );

    expect(result).toEqual({
      accepted: 2,
      refused: [
        { index: 1, id: 'bad-1', code: 'unknown_module' },
        { index: 3, id: 'bad-2', code: 'unknown_module' },
      ],
    });
    expect(stores.events.batches).toHaveLength(1);
    expect(rowsOf(0).map((r) => r.device_id)).toEqual(['device-good-1', 'device-good-2']);
  });

  it('appends nothing when every event of the batch is refused', async () => {
    const { service, stores } = intake(route([KNOWN]));
    const result = await service.accept('app-1', [event('bad', 'invented')], CLIENT);

    expect(result).toEqual({ accepted: 0, refused: [{ index: 0, id: 'bad', code: 'unknown_module' }] });
    expect(stores.events.batches).toEqual([]);
  });

  it('reloads the app before refusing, so an event of a release pushed a moment ago is taken', async () => {
    const { service, stores, loads } = intake(route([KNOWN]), route([KNOWN, PUSHED_LATER]));
    const result = await service.accept('app-1', [event('new', PUSHED_LATER)], CLIENT);

    expect(loads).toEqual(['app-1']);
    expect(result).toEqual({ accepted: 1, refused: [] });
    expect(stores.events.batches).toHaveLength(1);
  });

  it('answers 404 for an app that does not exist, and appends nothing', async () => {
    const { service, stores } = intake(null);

    await expect(service.accept('no-such-app', [event('e1', null)], CLIENT)).rejects.toMatchObject({
      status: 404,
      code: 'app_not_found',
    });
    expect(stores.events.batches).toEqual([]);
  });
});

describe('update checks recorded as events', () => {
  it('appends one batch of check events per app (app ids in lower case), in one call', async () => {
    const stores = createFakeStores();
    const check = (appId: string, deviceId: string) => ({
      appId,
      deviceId,
      channel: 'production',
      moduleId: null,
    });
    await recordChecks(
      stores.events,
      [check('App-A', 'd1'), check('app-b', 'd2'), check('app-a', 'd3')],
      1_000,
    );

    expect(stores.events.batches.map((b) => [b.appId, b.receivedMs, b.encoded.rows])).toEqual([
      ['app-a', 1_000, 2],
      ['app-b', 1_000, 1],
    ]);
    const rows = rowsOf(stores.events.batches[0]!.encoded.text);
    expect(rows.map((r) => [r.type, r.device_id, r.channel, r.module_id])).toEqual([
      ['check', 'd1', 'production', ''],
      ['check', 'd3', 'production', ''],
    ]);
  });
});

describe('what device reports weigh in error-spike decisions', () => {
  const reports = (n: number, type: DeviceEventInput['type'], tag: string) =>
    Array.from({ length: n }, (_, i) => ({ ...event(`${tag}-${i}`, KNOWN, type), device_id: `${tag}-${i}` }));

  it('records the client network of the batch: an IPv4 /24, an IPv6 /48', async () => {
    const { service, stores } = intake(route([KNOWN]));
    await service.accept('app-1', [event('v4', KNOWN, 'error')], { ip: '203.0.113.77' });
    await service.accept('app-1', [event('v6', KNOWN, 'error')], { ip: '2001:db8:aa:bb::1' });
    expect(stores.events.batches.map((b) => b.encoded.network)).toEqual([
      '203.0.113.0/24',
      '2001:db8:aa::/48',
    ]);
  });

  it("counts a handful of one address's invented devices and stores every event", async () => {
    const { service, stores, rowsOf } = intake(route([KNOWN]));
    await service.accept('app-1', reports(200, 'error', 'invented'), CLIENT);
    expect(rowsOf(0)).toHaveLength(200);
    const [counter] = stores.events.batches[0]!.encoded.counters;
    // The fake's allowance is 3 devices per address, release and hour.
    expect(counter![3]).toEqual(['invented-0', 'invented-1', 'invented-2']);
    // A device already counted from that address keeps counting; another address has its own allowance.
    await service.accept(
      'app-1',
      [{ ...event('again', KNOWN, 'activation'), device_id: 'invented-1' }],
      CLIENT,
    );
    expect(stores.events.batches[1]!.encoded.counters[0]![2]).toEqual(['invented-1']);
    await service.accept('app-1', reports(5, 'error', 'elsewhere'), { ip: '192.0.2.9' });
    expect(stores.events.batches[2]!.encoded.counters[0]![3]).toHaveLength(3);
  });
});
