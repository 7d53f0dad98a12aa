import { describe, expect, it } from 'vitest';
import { FakeBytesServed } from '../../../src/analytics/bytes-served.fake-store.js';
import { CapacitorService, statEventId } from '../../../src/capacitor/capacitor.service.js';
import { CapacitorChannelSelf } from '../../../src/capacitor/capacitor-channel-self.js';
import { FakeCapacitorChannelsStore } from '../../../src/capacitor/capacitor-channels.fake-store.js';
import { reachableByKey as reachable } from '../../../src/capacitor/capacitor-route-slot.js';
import { askedChannel, fitsKey, resetsToBuiltin } from '../../../src/capacitor/capacitor-rules.js';
import { ChannelHistory } from '../../../src/codepush/release-history.js';
import type { DeviceCapGate } from '../../../src/devices/device-cap.js';
import { FakeDeviceOffers } from '../../../src/devices/device-offers.fake-store.js';
import type { DeviceEventInput } from '../../../src/intake/events.service.js';
import { binaryRangeOf } from '../../../src/releases/binary-range.js';
import type { RoutingCache } from '../../../src/routing/routing.cache.js';
import type { RoutingInvalidationListener } from '../../../src/routing/routing.listener.js';
import type { AppRoute, RoutedRelease } from '../../../src/routing/routing.types.js';
import { UpdateCheckService } from '../../../src/updates/updates.service.js';

const APP = '0b6f3d1e-5c1a-4f7e-9a1b-2c3d4e5f6a7b';
const KEY = 'MIIBCgKCAQEAl+cqGoBz';
const client = { ip: '203.0.113.7' };

let n = 0;
function release(version: string, more: Partial<RoutedRelease> = {}): RoutedRelease {
  n += 1;
  const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  return {
    id,
    version,
    rolloutPct: 100,
    fingerprint: null,
    binaryRange: null,
    mandatory: false,
    paused: false,
    notes: '',
    sha256: 'a'.repeat(64),
    crc32: '0a1b2c3d',
    size: 1000,
    url: `https://ota.example.com/api/v1/bundles/${id}`,
    answers: new Map(),
    ...more,
  };
}

const sealed = (version: string, keyId = KEY, more: Partial<RoutedRelease> = {}) =>
  release(version, { capacitor: { checksum: 'ab'.repeat(256), sessionKey: 'iv:key', keyId }, ...more });

/** The adapter on fakes: a route held in memory, the check service admitting every device. */
function adapter(
  channels: Record<string, RoutedRelease[]>,
  extra: Partial<AppRoute> = {},
  rolledBack: RoutedRelease[] = [],
) {
  const route: AppRoute = {
    appId: APP,
    workspaceId: 'ws-1',
    plan: 'team',
    channels: new Map(Object.entries(channels).map(([c, list]) => [c, reachable(list)])),
    modules: new Set([...Object.values(channels).flat(), ...rolledBack].map((r) => r.id)),
    answers: new Map(),
    ...extra,
  };
  const routing = {
    peek: (id: string) => (id === APP ? route : undefined),
    load: async () => null,
  } as unknown as RoutingCache;
  const offers = new FakeDeviceOffers();
  const updates = new UpdateCheckService({
    routing,
    listener: {} as RoutingInvalidationListener,
    gate: { admit: () => 'admitted' } as unknown as DeviceCapGate,
    devices: { add: () => {}, start: () => {}, stop: async () => {} },
    recorder: { record: () => {} },
    offers,
  });
  const accepted: DeviceEventInput[] = [];
  const channelsStore = new FakeCapacitorChannelsStore();
  const bytes = new FakeBytesServed();
  const histories = {
    of: async (_route: AppRoute, channel: string) =>
      new ChannelHistory(
        [...(channels[channel] ?? []), ...rolledBack].map((r, i) => ({
          id: r.id,
          version: r.version,
          seq: i,
          active: !rolledBack.includes(r),
          mandatory: false,
          fingerprint: null,
          target_binary_range: null,
        })),
      ),
  };
  const service = new CapacitorService({
    routing,
    updates,
    events: {
      accept: async (_app, events) => {
        accepted.push(...events);
        return { accepted: events.length, refused: [] } as never;
      },
    },
    histories,
    channels: channelsStore,
    offers,
    bytesServed: bytes,
  });
  return {
    service,
    accepted,
    channelsStore,
    bytes,
    offers,
    self: new CapacitorChannelSelf(service, channelsStore),
  };
}

const answer = async (a: ReturnType<typeof adapter>, info: Record<string, unknown>) =>
  JSON.parse(
    (await a.service.updateCheck(APP, { device_id: 'device-1', ...info }, client)).answer.toString(),
  );

describe('Capacitor rules', () => {
  it('serves the first open channel the device names, in the order its plugin keeps them; else production', () => {
    const route = { selfAssignable: new Set(['beta']) };
    // Plugin 8: defaultChannel alone.
    expect(askedChannel(route, 'beta')).toEqual({ channel: 'beta', own: true });
    expect(askedChannel(route, '')).toEqual({ channel: 'production', own: false });
    expect(askedChannel(route, 'internal')).toEqual({ channel: 'production', own: false });
    // Plugins below 5.34/6.34/7.34: the stored channel, then the configured defaultChannel.
    expect(askedChannel(route, 'beta', '')).toEqual({ channel: 'beta', own: true });
    expect(askedChannel(route, 'beta', 'other')).toEqual({ channel: 'beta', own: true });
    expect(askedChannel(route, 'internal', 'beta')).toEqual({ channel: 'beta', own: true });
    expect(askedChannel(route, undefined, 'beta')).toEqual({ channel: 'beta', own: true });
    expect(askedChannel({}, undefined, 'beta')).toEqual({ channel: 'production', own: false });
  });

  it('matches keys by their 20 characters, or the 4 of plugins 8.2-8.40; no key only unsigned', () => {
    expect(fitsKey(sealed('1'), KEY)).toBe(true);
    expect(fitsKey(sealed('1'), 'MIIB')).toBe(true);
    expect(fitsKey(sealed('1'), 'MIIBCgKCAQEAzzzzzzzz')).toBe(false);
    expect(fitsKey(sealed('1'), undefined)).toBe(false);
    expect(fitsKey(release('1'), KEY)).toBe(false);
    expect(fitsKey(release('1'), '')).toBe(true);
  });

  it('resets to builtin from plugins 6.2.0, 7.0.2 and the 5.50 line on', () => {
    for (const v of ['6.2.0', '7.0.2', '8.51.14', '5.50.1', undefined]) expect(resetsToBuiltin(v)).toBe(true);
    for (const v of ['5.4.1', '6.1.9', '7.0.1', '5.49.0', '4.0.0']) expect(resetsToBuiltin(v)).toBe(false);
  });

  it('routing keeps releases until every key and "no key" has one admitting all its devices', () => {
    const a = sealed('3');
    const b = release('2');
    const c = sealed('1');
    const d = release('0');
    expect(reachable([a, b, c, d])).toEqual([a, b]);
    expect(reachable([a, c, b, d])).toEqual([a, c, b]);
    const other = sealed('x', 'MIIBCgKCAQEAzzzzzzzz');
    expect(reachable([a, b, other, d])).toEqual([a, b, other]);
  });
});

describe('Capacitor update check on fakes', () => {
  it('answers version, url and checksum; a keyed device only its key’s releases, never unsigned', async () => {
    const plain = release('1.0.0');
    const keyed = sealed('1.1.0');
    const a = adapter({ production: [keyed, plain] });
    expect(await answer(a, { version_name: 'builtin' })).toEqual({
      version: '1.0.0',
      url: plain.url,
      checksum: plain.sha256,
    });
    expect(await answer(a, { version_name: 'builtin', key_id: KEY })).toEqual({
      version: '1.1.0',
      url: keyed.url,
      checksum: keyed.capacitor!.checksum,
      session_key: 'iv:key',
    });
    const other = await answer(a, { version_name: 'builtin', key_id: 'MIIBCgKCAQEAzzzzzzzz' });
    expect(other).toMatchObject({ kind: 'up_to_date' });
    expect(a.bytes.counts.get(plain.id)).toEqual({ full: 1000, patch: 0, per_file: 0 });
  });

  it('sends a device on a release it must leave, with nothing else, to builtin; not plugins before 6.2', async () => {
    const gone = release('1.0.0');
    const ranged = release('0.9.0', { binaryRange: binaryRangeOf('>=2.0.0') });
    const a = adapter({ production: [ranged] }, {}, [gone]);
    expect(await answer(a, { version_name: '1.0.0', version_build: '1.4.0' })).toEqual({
      version: 'builtin',
    });
    expect(
      await answer(a, { version_name: '1.0.0', version_build: '1.4.0', plugin_version: '5.4.1' }),
    ).toMatchObject({
      kind: 'up_to_date',
    });
    expect(await answer(a, { version_name: 'builtin', version_build: '1.4.0' })).toMatchObject({
      kind: 'up_to_date',
    });
    expect(await answer(a, { version_name: '1.0.0', version_build: '2.0' })).toMatchObject({
      version: '0.9.0',
    });
  });

  it('keeps a paused release on the devices that run it, and serves a stored channel to old plugins', async () => {
    const base = release('1.0.0');
    const paused = release('1.1.0', { paused: true });
    const beta = release('2.0.0-beta');
    const a = adapter({ production: [paused, base], beta: [beta] }, { selfAssignable: new Set(['beta']) });
    expect(await answer(a, { version_name: '1.1.0' })).toMatchObject({ kind: 'up_to_date' });
    expect(await answer(a, { version_name: 'builtin' })).toMatchObject({ version: '1.0.0' });
    const old = { plugin_version: '5.4.1' };
    expect(await a.self.set({ device_id: 'device-1', channel: 'beta', ...old }, APP, client)).toEqual({
      status: 'ok',
      allowSet: true,
    });
    expect(await answer(a, { version_name: 'builtin', ...old })).toMatchObject({ version: '2.0.0-beta' });
    // A plugin that keeps its channel on the device is served what it sends, the stored channel unread.
    expect(
      await answer(a, { version_name: 'builtin', plugin_version: '8.51.14', defaultChannel: '' }),
    ).toMatchObject({ version: '1.0.0' });
    expect(await a.self.get(APP, { device_id: 'device-1', ...old })).toEqual({
      channel: 'beta',
      status: 'override',
      allowSet: true,
    });
    await a.self.unset(APP, 'device-1');
    expect(await answer(a, { version_name: 'builtin', ...old })).toMatchObject({ version: '1.0.0' });
    expect(await a.self.set({ device_id: 'device-1', channel: 'nope', ...old }, APP, client)).toMatchObject({
      error: 'channel_not_found',
    });
    expect(await a.self.list(APP)).toEqual([
      { id: 1, name: 'production', public: true, allow_self_set: true },
      { id: 2, name: 'beta', public: false, allow_self_set: true },
    ]);
  });
});

describe('Capacitor plugin versions on fakes', () => {
  it('answers each plugin the checksum it verifies; a release without a CRC32 is not offered to CRC32 plugins', async () => {
    const withCrc = adapter({ production: [release('1.0.0')] });
    expect(await answer(withCrc, { version_name: 'builtin', plugin_version: '6.5.0' })).toMatchObject({
      version: '1.0.0',
      checksum: '0a1b2c3d',
    });
    const unknown = release('1.1.0', { crc32: undefined });
    const a = adapter({ production: [unknown] });
    // 6.5.0 verifies CRC32 and this release has none (pushed before it was kept): nothing it could verify.
    expect(await answer(a, { version_name: 'builtin', plugin_version: '6.5.0' })).toMatchObject({
      kind: 'up_to_date',
    });
    expect(await answer(a, { version_name: 'builtin', plugin_version: '8.51.14' })).toMatchObject({
      version: '1.1.0',
      checksum: 'a'.repeat(64),
    });
    expect(
      await answer(a, { version_name: 'builtin', plugin_version: '7.0.2', platform: 'android' }),
    ).toMatchObject({
      version: '1.1.0',
      checksum: '',
    });
  });
});

describe('Capacitor unknown apps', () => {
  it('answers an app known not to exist from memory, without loading it again', async () => {
    let loads = 0;
    const routing = {
      peek: () => null,
      load: async () => {
        loads += 1;
        return null;
      },
    } as unknown as RoutingCache;
    const service = new CapacitorService({
      routing,
      updates: {} as UpdateCheckService,
      events: { accept: async () => ({}) as never },
      histories: { of: async () => new ChannelHistory([]) },
      channels: new FakeCapacitorChannelsStore(),
      offers: new FakeDeviceOffers(),
    });
    await expect(service.route(APP)).rejects.toMatchObject({ status: 404 });
    expect(loads).toBe(0);
  });
});

describe('Capacitor statistics on fakes', () => {
  it('counts the listed actions once per device, release and kind; names rolled-back releases too', async () => {
    const current = release('1.0.1');
    const gone = release('1.0.0');
    const a = adapter({ production: [current] }, {}, [gone]);
    // 1.0.0 was the last release offered this device: its checksum failure is 1.0.0's, whatever it names.
    a.offers.note('ws-1', APP, 'device-1', gone.id);
    const stat = (action: string, version_name: string) => ({ device_id: 'device-1', action, version_name });
    await a.service.stats(
      APP,
      [
        stat('download_complete', '1.0.1'),
        stat('set', '1.0.1'),
        stat('set', '1.0.1'),
        stat('update_fail', '1.0.1'),
        stat('app_launch_timeout', '1.0.1'),
        stat('checksum_fail', '1.0.1'),
        stat('update_fail', '1.0.0'),
        stat('app_moved_to_foreground', '1.0.1'),
        stat('set', 'builtin'),
        stat('set', 'made-up'),
      ],
      client,
    );
    expect(a.accepted.map((e) => [e.type, e.module_id])).toEqual([
      ['download', current.id],
      ['activation', current.id],
      ['error', current.id],
      ['error', gone.id],
    ]);
    expect(a.accepted[0]!.id).toBe(statEventId('download', current.id, 'device-1'));
    await expect(
      a.service.stats(
        APP,
        [stat('set', '1.0.1'), { ...stat('set', '1.0.1'), device_id: 'device-2' }],
        client,
      ),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('credits download-side failures to the last offer, whatever they name; after no offer to no release', async () => {
    const current = release('1.0.1');
    const next = release('1.0.2', { rolloutPct: 100 });
    const a = adapter({ production: [next, current] });
    const fail = (action: string, version_name: string) => [{ device_id: 'device-1', action, version_name }];
    // Offered 1.0.2 while it runs 1.0.1: Android's checksum_fail and every download_fail name 1.0.1.
    expect(await answer(a, { version_name: '1.0.1' })).toMatchObject({ version: '1.0.2' });
    await a.service.stats(APP, fail('checksum_fail', '1.0.1'), client);
    await a.service.stats(APP, fail('decrypt_fail', 'builtin'), client);
    // Up to date now: a download_fail after a failed check names 1.0.2 and is no release's error.
    expect(await answer(a, { version_name: '1.0.2' })).toMatchObject({ kind: 'up_to_date' });
    await a.service.stats(APP, fail('download_fail', '1.0.2'), client);
    // A launch failure names its release.
    await a.service.stats(APP, fail('update_fail', '1.0.2'), client);
    expect(a.accepted.map((e) => [e.type, e.module_id, e.message])).toEqual([
      ['error', next.id, 'capacitor-updater: checksum_fail'],
      ['error', next.id, 'capacitor-updater: decrypt_fail'],
      ['error', '', 'capacitor-updater: download_fail (no release offered)'],
      ['error', next.id, 'capacitor-updater: update_fail'],
    ]);
  });
});
