import { describe, expect, it } from 'vitest';
import { SpikeEvaluator } from '../../../src/spikes/spike.evaluator.js';
import { CapacitorDevice } from '../../helpers/capacitor-device.js';
import { fileContext } from '../../helpers/context.js';
import { setPlan, type Workspace, workspaceWithApp } from '../releases/fixtures.js';
import { drainIngest, storedEvents } from '../telemetry/fixtures.js';
import {
  capacitorRelease,
  capacitorUrl,
  check,
  control,
  fixture,
  fixtureQuery,
  flush,
  send,
} from './harness.js';

/** POST …/stats feeds the release statistics and spike alerts; …/channel_self moves devices by API.md's rule. */
const ctx = fileContext();

const device = (extra: ConstructorParameters<typeof CapacitorDevice>[0] = {}) =>
  new CapacitorDevice({ deviceId: crypto.randomUUID(), ...extra });

const drain = () => drainIngest(ctx.deps);

async function stats(ws: Workspace, moduleId: string) {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/v1/modules/${moduleId}`,
    headers: ws.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().stats as {
    downloads: number;
    activations: number;
    errors: number;
    bytes_served: { full: number; patch: number; per_file: number };
  };
}

describe('Capacitor statistics', () => {
  it('count each generation’s fixture (batched array, single object) once per device, release and kind', async () => {
    const ws = await workspaceWithApp(ctx);
    const r = await capacitorRelease(ctx, ws, '1.0.1');
    // Plugin 8: download_complete + set of 1.0.1 in one array; sent twice, as after a lost answer.
    for (let i = 0; i < 2; i++) {
      const res = await send(ctx, ws.appId, 'stats', fixture('8.51.14', 'android', 'stats.json'));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
    }
    // Plugin 7 (one `set` object per request) and 5.4 (only `action`; version_name the running bundle).
    for (const generation of ['7.33.4', '5.4.1'] as const) {
      const res = await send(ctx, ws.appId, 'stats', fixture(generation, 'ios', 'stats.json'));
      expect(res.statusCode, res.body).toBe(200);
    }
    await drain();
    expect(await stats(ws, r.id)).toMatchObject({ downloads: 1, activations: 1, errors: 0 });
    expect(await storedEvents(ctx.deps, ws.appId)).toBe(2);
  }, 60_000);

  it('follow a device through an update and a missed notifyAppReady, and feed the spike evaluation', async () => {
    const ws = await workspaceWithApp(ctx);
    const alerts = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/apps/${ws.appId}/alerts`,
      headers: ws.headers,
      payload: { threshold: 0.3, min_sample: 6, min_networks: 1 },
    });
    expect(alerts.statusCode, alerts.body).toBe(200);
    const r = await capacitorRelease(ctx, ws, '1.0.1');
    for (let i = 0; i < 6; i++) {
      const d = device();
      const outcome = await check(ctx, ws.appId, d);
      expect(outcome.kind).toBe('update');
      d.sendStats({ action: 'download_complete', versionName: r.version });
      d.activate(r.version);
      // Half of them do not call notifyAppReady() in time: update_fail and app_launch_timeout, one error.
      if (i >= 3) {
        d.sendStats({ action: 'app_launch_timeout', versionName: r.version });
        d.missAppReady();
      }
      await flush(ctx, ws.appId, d);
    }
    await drain();
    const s = await stats(ws, r.id);
    expect(s).toMatchObject({ downloads: 6, activations: 6, errors: 3 });
    expect(s.bytes_served.full).toBeGreaterThan(0);
    const evaluator = new SpikeEvaluator(ctx.deps.db, ctx.deps.redis, ctx.deps.keys, ctx.deps.log, undefined);
    // `set` comes before notifyAppReady(): the three that timed out count an activation and an error each.
    const result = await evaluator.evaluate(ws.appId);
    expect(result).toMatchObject({ fired: true, sample: 9 });
    expect(result?.errorRate).toBeCloseTo(3 / 9);
  }, 60_000);

  it('store the valid entries of a batch with a malformed one, and read "<version>:<file>" as the version', async () => {
    const ws = await workspaceWithApp(ctx);
    const r = await capacitorRelease(ctx, ws, '1.0.1');
    const batch = fixture('8.51.14', 'android', 'stats.json') as Array<Record<string, unknown>>;
    // Plugins 8.42+ (and 5.50/6.50/7.50) drop a batch answered 400: one bad entry must not lose the others.
    for (const bad of [
      { ...batch[0], action: 42 },
      { ...batch[0], version_name: 'v'.repeat(500) },
      'text',
      null,
    ]) {
      const res = await send(ctx, ws.appId, 'stats', [batch[0], bad, batch[1]]);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
    }
    // The iOS queue names manifest files as "<version>:<file>": read as the version.
    const other = device({ generation: '7.33.4', platform: 'ios' });
    const set = {
      ...other.info(),
      version_name: `${r.version}:www/index.html`,
      old_version_name: '',
      action: 'set',
    };
    const res = await send(ctx, ws.appId, 'stats', set);
    expect(res.statusCode, res.body).toBe(200);
    await drain();
    expect(await stats(ws, r.id)).toMatchObject({ downloads: 1, activations: 2, errors: 0 });
  }, 60_000);

  it('refuses a batch mixing devices, an empty one, and an unknown app, as problems', async () => {
    const ws = await workspaceWithApp(ctx);
    const batch = fixture('8.51.14', 'android', 'stats.json') as Array<Record<string, unknown>>;
    const mixed = [batch[0], { ...batch[1], device_id: crypto.randomUUID() }];
    for (const [app, body, status] of [
      [ws.appId, mixed, 400],
      [ws.appId, [], 400],
      [ws.appId, { action: 'set' }, 400],
      [crypto.randomUUID(), batch, 404],
    ] as const) {
      const res = await send(ctx, app, 'stats', body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
  });
});

describe('Capacitor channel_self', () => {
  it('lets a device join only a channel that allows it; defaultChannel decides, else the stored channel', async () => {
    const ws = await workspaceWithApp(ctx);
    await setPlan(ctx, ws.workspaceId, 'pro');
    const prod = await capacitorRelease(ctx, ws, '1.0.0');
    const beta = await capacitorRelease(ctx, ws, '1.1.0-beta', { extra: { channel: 'beta' } });
    await capacitorRelease(ctx, ws, '1.2.0-internal', { extra: { channel: 'internal' } });

    const post = (generation: '8.51.14' | '7.33.4' | '5.4.1', channel: string) =>
      send(ctx, ws.appId, 'channel_self', {
        ...fixture(generation, 'android', 'channel_self.post.json'),
        channel,
      });
    expect((await post('8.51.14', 'beta')).json()).toMatchObject({ error: 'channel_self_set_not_allowed' });
    expect((await post('8.51.14', 'nope')).json()).toMatchObject({ error: 'channel_not_found' });
    await control(ctx, ws, 'PATCH', `/apps/${ws.appId}/channels/beta`, { allow_device_self_assign: true });
    expect((await post('8.51.14', 'beta')).json()).toEqual({ status: 'ok', allowSet: true });
    expect((await post('8.51.14', 'internal')).json()).toMatchObject({
      error: 'channel_self_set_not_allowed',
    });

    // Plugin 8 keeps the channel and sends it as defaultChannel; a closed or unknown one means production.
    const modern = device({ defaultChannel: 'beta' });
    expect(await check(ctx, ws.appId, modern)).toMatchObject({ version: beta.version });
    expect(await check(ctx, ws.appId, device({ defaultChannel: 'internal' }))).toMatchObject({
      version: prod.version,
    });
    const put = await send(ctx, ws.appId, 'channel_self', modern.channelRequest('PUT').body, 'PUT');
    expect(put.json()).toEqual({ channel: 'beta', status: 'override', allowSet: true });

    // Plugin 5.4 sends no defaultChannel: the channel it stored decides, until it unsets it.
    expect((await post('5.4.1', 'beta')).json()).toEqual({ status: 'ok', allowSet: true });
    const old = fixture('5.4.1', 'android', 'updates.json');
    expect((await send(ctx, ws.appId, 'updates', old)).json()).toMatchObject({ version: beta.version });
    const oldPut = await send(
      ctx,
      ws.appId,
      'channel_self',
      fixture('5.4.1', 'android', 'channel_self.put.json'),
      'PUT',
    );
    expect(oldPut.json()).toEqual({ channel: 'beta', status: 'override', allowSet: true });
    // Plugin 7.33 unsets with a JSON body; the 5.4 device is the same device id, back on production.
    const unset = await send(
      ctx,
      ws.appId,
      'channel_self',
      fixture('7.33.4', 'android', 'channel_self.delete.json'),
      'DELETE',
    );
    expect(unset.json()).toEqual({ status: 'ok' });
    expect((await send(ctx, ws.appId, 'updates', old)).json()).toMatchObject({ version: prod.version });
    // A channel closed again is no longer served to the devices that joined it.
    await post('5.4.1', 'beta');
    await control(ctx, ws, 'PATCH', `/apps/${ws.appId}/channels/beta`, { allow_device_self_assign: false });
    expect((await send(ctx, ws.appId, 'updates', old)).json()).toMatchObject({ version: prod.version });
    expect(await check(ctx, ws.appId, modern)).toMatchObject({ version: prod.version });
  });

  it('serves plugins 5.5-7.33 the channel they set over their configured one; an override wins, never answered as theirs', async () => {
    const ws = await workspaceWithApp(ctx);
    await setPlan(ctx, ws.workspaceId, 'pro');
    const prod = await capacitorRelease(ctx, ws, '1.0.0');
    const beta = await capacitorRelease(ctx, ws, '1.1.0-beta', { extra: { channel: 'beta' } });
    const qa = await capacitorRelease(ctx, ws, '1.2.0-qa', { extra: { channel: 'qa' } });
    await control(ctx, ws, 'PATCH', `/apps/${ws.appId}/channels/beta`, { allow_device_self_assign: true });

    // 7.33.4 sends its configured defaultChannel ("") on every request and relies on the server for the rest.
    const old = device({ generation: '7.33.4' });
    expect(await check(ctx, ws.appId, old)).toMatchObject({ version: prod.version });
    const set = await send(ctx, ws.appId, 'channel_self', old.channelRequest('POST', 'beta').body);
    expect(set.json()).toEqual({ status: 'ok', allowSet: true });
    expect(await check(ctx, ws.appId, old)).toMatchObject({ version: beta.version });
    const oldPut = await send(ctx, ws.appId, 'channel_self', old.channelRequest('PUT').body, 'PUT');
    expect(oldPut.json()).toEqual({ channel: 'beta', status: 'override', allowSet: true });

    // From 7.34.0 the plugin keeps its channel: what it sends decides, a stored one is not read.
    const kept = { ...old.updatesBody(), device_id: crypto.randomUUID(), plugin_version: '7.34.0' };
    await send(ctx, ws.appId, 'channel_self', { ...kept, channel: 'beta' });
    expect((await send(ctx, ws.appId, 'updates', kept)).json()).toMatchObject({ version: prod.version });

    // A device override wins over both, and PUT still answers the device's own channel.
    const modern = device({ defaultChannel: 'beta' });
    for (const d of [old, modern]) {
      await control(ctx, ws, 'PUT', `/apps/${ws.appId}/device-overrides/${d.deviceId}`, { channel: 'qa' });
      expect(await check(ctx, ws.appId, d)).toMatchObject({ version: qa.version });
      const put = await send(ctx, ws.appId, 'channel_self', d.channelRequest('PUT').body, 'PUT');
      expect(put.json()).toEqual({ channel: 'beta', status: 'override', allowSet: true });
    }
  });

  it('keeps the channel of the app however its id is spelled in the URL', async () => {
    const ws = await workspaceWithApp(ctx);
    await setPlan(ctx, ws.workspaceId, 'pro');
    await capacitorRelease(ctx, ws, '1.0.0');
    const beta = await capacitorRelease(ctx, ws, '1.1.0-beta', { extra: { channel: 'beta' } });
    await control(ctx, ws, 'PATCH', `/apps/${ws.appId}/channels/beta`, { allow_device_self_assign: true });
    const body = { ...fixture('5.4.1', 'android', 'channel_self.post.json'), channel: 'beta' };
    expect((await send(ctx, ws.appId.toUpperCase(), 'channel_self', body)).json()).toEqual({
      status: 'ok',
      allowSet: true,
    });
    const old = fixture('5.4.1', 'android', 'updates.json');
    expect((await send(ctx, ws.appId, 'updates', old)).json()).toMatchObject({ version: beta.version });
  });

  it('lists the channels a device may join with numeric ids, from the plugin’s query string', async () => {
    const ws = await workspaceWithApp(ctx);
    await setPlan(ctx, ws.workspaceId, 'pro');
    await capacitorRelease(ctx, ws, '1.0.0', { extra: { channel: 'beta' } });
    await control(ctx, ws, 'PATCH', `/apps/${ws.appId}/channels/beta`, { allow_device_self_assign: true });
    for (const generation of ['8.51.14', '7.33.4'] as const) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `${capacitorUrl(ws.appId, 'channel_self')}?${fixtureQuery(generation, 'ios')}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual([
        { id: 1, name: 'production', public: true, allow_self_set: true },
        { id: 2, name: 'beta', public: false, allow_self_set: true },
      ]);
    }
    const none = await ctx.app.inject({ method: 'DELETE', url: capacitorUrl(ws.appId, 'channel_self') });
    expect(none.statusCode).toBe(400);
  });
});
