import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../client/errors.js';
import type { Release } from '../../../client/types.js';
import { DeviceCapGate } from '../../../src/devices/device-cap.js';
import { MAX_OVERRIDES_PER_APP } from '../../../src/overrides/device-overrides.service.js';
import { bucketOf } from '../../../src/updates/bucket.js';
import { fileContext } from '../../helpers/context.js';
import { waitFor } from '../../helpers/wait.js';
import { createKey, Device, offeredLabel } from '../codepush/harness.js';
import { expoHeaders, expoWorld, getManifest, partsOf, pushExport } from '../expo/expo-world.js';
import { auditOf, checkRaw, devicesIn, offered, pushBundle, settled, world } from './world.js';

const ctx = fileContext({ listen: true });

const refusal = async (promise: Promise<unknown>) => {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'refused').toBeInstanceOf(ApiError);
  return { status: (err as ApiError).status, code: (err as ApiError).code };
};

describe('device overrides: the control API', () => {
  it('pins, lists newest first, replaces, removes; audited device.override and device.override_remove', async () => {
    const w = await world(ctx, 'pro');
    const release = await pushBundle(w, { version: '1.0.0' });
    await pushBundle(w, { version: '1.0.0-beta', channel: 'beta' });
    const pinned = await w.client.deviceOverrides.put(w.appId, 'tester-1', { channel: 'beta' });
    expect(pinned).toEqual({
      device_id: 'tester-1',
      channel: 'beta',
      module_id: null,
      created_at: expect.any(String),
    });
    await w.client.deviceOverrides.put(w.appId, 'support-7', { module_id: release.id });
    const replaced = await w.client.deviceOverrides.put(w.appId, 'tester-1', { module_id: release.id });
    expect(replaced).toMatchObject({ channel: null, module_id: release.id });
    const { overrides } = await w.client.deviceOverrides.list(w.appId);
    expect(overrides.map((o) => [o.device_id, o.channel, o.module_id])).toEqual([
      ['tester-1', null, release.id],
      ['support-7', null, release.id],
    ]);
    await w.client.deviceOverrides.remove(w.appId, 'support-7');
    expect(await refusal(w.client.deviceOverrides.remove(w.appId, 'support-7'))).toEqual({
      status: 404,
      code: 'override_not_found',
    });
    expect((await w.client.deviceOverrides.list(w.appId)).overrides.map((o) => o.device_id)).toEqual([
      'tester-1',
    ]);
    expect(
      (await auditOf(w)).filter((e) => e.action.startsWith('device.')).map((e) => [e.action, e.details]),
    ).toEqual([
      [
        'device.override',
        {
          device_id: 'tester-1',
          old: { channel: null, module_id: null },
          new: { channel: 'beta', module_id: null },
        },
      ],
      [
        'device.override',
        {
          device_id: 'support-7',
          old: { channel: null, module_id: null },
          new: { channel: null, module_id: release.id },
        },
      ],
      [
        'device.override',
        {
          device_id: 'tester-1',
          old: { channel: 'beta', module_id: null },
          new: { channel: null, module_id: release.id },
        },
      ],
      ['device.override_remove', { device_id: 'support-7', old: { channel: null, module_id: release.id } }],
    ]);
  });

  it('refuses what cannot be pinned, writing nothing', async () => {
    const w = await world(ctx, 'hobby');
    const release = await pushBundle(w);
    const other = await world(ctx, 'team');
    const theirs = await pushBundle(other);
    const sameWorkspaceApp = (await w.client.apps.create('Another')).id;
    const before = (await auditOf(w)).length;
    // Channels other than production need a plan with channels.
    expect(await refusal(w.client.deviceOverrides.put(w.appId, 'd1', { channel: 'beta' }))).toEqual({
      status: 402,
      code: 'plan_upgrade_required',
    });
    expect(
      await refusal(w.client.deviceOverrides.put(w.appId, 'd1', { module_id: theirs.id })),
    ).toMatchObject({
      status: 404,
      code: 'release_not_found',
    });
    expect(
      await refusal(w.client.deviceOverrides.put(sameWorkspaceApp, 'd1', { module_id: release.id })),
    ).toMatchObject({ status: 404, code: 'release_not_found' });
    for (const body of [
      {},
      { channel: 'beta', module_id: release.id },
      { channel: 'Beta' },
      { module_id: 'x' },
    ]) {
      expect(await refusal(w.client.deviceOverrides.put(w.appId, 'd1', body as never))).toMatchObject({
        status: 400,
      });
    }
    expect(
      await refusal(w.client.deviceOverrides.put(w.appId, 'bad id!', { channel: 'production' })),
    ).toMatchObject({
      status: 400,
    });
    const second = await pushBundle(w);
    await w.client.modules.rollback(second.id);
    expect(await refusal(w.client.deviceOverrides.put(w.appId, 'd1', { module_id: second.id }))).toEqual({
      status: 409,
      code: 'release_inactive',
    });
    expect((await auditOf(w)).length).toBe(before + 2); // the second push and its rollback only
    expect((await w.client.deviceOverrides.list(w.appId)).overrides).toEqual([]);
    // production is open to every plan.
    expect(await w.client.deviceOverrides.put(w.appId, 'd1', { module_id: release.id })).toMatchObject({
      module_id: release.id,
    });
  });

  it('refuses a channel no release was pushed to: 404 channel_not_found, naming the channels', async () => {
    const w = await world(ctx, 'team');
    await pushBundle(w, { version: '2.0.0', channel: 'staging' });
    const before = (await auditOf(w)).length;
    const err = await w.client.deviceOverrides.put(w.appId, 'phone-b', { channel: 'beta' }).then(
      () => undefined,
      (e: unknown) => e as ApiError,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 404, code: 'channel_not_found' });
    expect(err!.detail).toContain('"beta"');
    expect(err!.detail).toContain('production, staging');
    expect((await w.client.deviceOverrides.list(w.appId)).overrides).toEqual([]);
    expect((await auditOf(w)).length).toBe(before);
    expect(await w.client.deviceOverrides.put(w.appId, 'phone-b', { channel: 'staging' })).toMatchObject({
      channel: 'staging',
    });
  });

  it(`holds at most ${MAX_OVERRIDES_PER_APP} per app (409 beyond); replacing one is not a new one`, async () => {
    const w = await world(ctx, 'team');
    await ctx.deps.db.query(
      `INSERT INTO device_overrides (app_id, device_id, workspace_id, channel)
       SELECT $1, 'bulk-' || n, $2, 'production' FROM generate_series(1, $3::int) AS n`,
      [w.appId, w.workspaceId, MAX_OVERRIDES_PER_APP - 1],
    );
    await pushBundle(w, { version: 'beta-1', channel: 'beta' });
    await pushBundle(w, { version: 'qa-1', channel: 'qa' });
    await w.client.deviceOverrides.put(w.appId, 'last-one', { channel: 'beta' });
    expect(await refusal(w.client.deviceOverrides.put(w.appId, 'one-too-many', { channel: 'beta' }))).toEqual(
      {
        status: 409,
        code: 'too_many_overrides',
      },
    );
    expect(await w.client.deviceOverrides.put(w.appId, 'bulk-1', { channel: 'qa' })).toMatchObject({
      channel: 'qa',
    });
    expect((await w.client.deviceOverrides.list(w.appId)).overrides).toHaveLength(MAX_OVERRIDES_PER_APP);
  });
});

describe('device overrides: what devices are offered', () => {
  it('/updates/check: a channel override serves the device from that channel, by its buckets', async () => {
    const w = await world(ctx, 'pro');
    const production = await pushBundle(w);
    const beta = await pushBundle(w, { channel: 'beta' });
    const staged = await pushBundle(w, { channel: 'beta', rollout: 30 });
    const [inside] = devicesIn(bucketOf, staged.id, 30, true, 1, 'tester');
    const [outside] = devicesIn(bucketOf, staged.id, 30, false, 1, 'tester');
    await w.client.deviceOverrides.put(w.appId, inside!, { channel: 'beta' });
    await w.client.deviceOverrides.put(w.appId, outside!, { channel: 'beta' });
    await settled(w);
    expect(await offered(w, { device_id: inside! })).toBe(staged.id);
    expect(await offered(w, { device_id: outside!, channel: 'production' })).toBe(beta.id);
    expect(await offered(w, { device_id: 'someone-else' })).toBe(production.id);
    await w.client.deviceOverrides.remove(w.appId, inside!);
    await settled(w);
    expect(await offered(w, { device_id: inside! })).toBe(production.id);
  });

  it('/updates/check: a release override serves it whatever its bucket, rollout or pause, while the device can run it', async () => {
    const w = await world(ctx, 'pro');
    const base = await pushBundle(w);
    const pinned = await pushBundle(w, { rollout: 0, fingerprint: 'shell-2', target_binary_range: '^2.0.0' });
    await w.client.modules.pause(pinned.id);
    await pushBundle(w, { channel: 'beta' });
    await w.client.deviceOverrides.put(w.appId, 'support-1', { module_id: pinned.id });
    await settled(w);
    const fits = { fingerprint: 'shell-2', app_version: '2.3.0' };
    expect(await offered(w, { device_id: 'support-1', ...fits })).toBe(pinned.id);
    expect(await offered(w, { device_id: 'support-1', channel: 'beta', ...fits })).toBe(pinned.id);
    expect(await offered(w, { device_id: 'support-1', current_module_id: pinned.id, ...fits })).toBeNull();
    expect(await offered(w, { device_id: 'another', ...fits })).toBe(base.id);

    // A device that cannot run it is served as if it had no override; the listing says why.
    const listed = async () => (await w.client.deviceOverrides.list(w.appId)).overrides[0]!;
    expect(await offered(w, { device_id: 'support-1', fingerprint: 'shell-1', app_version: '2.3.0' })).toBe(
      base.id,
    );
    await waitFor('the fingerprint mismatch listed', async () =>
      (await listed()).reason === 'fingerprint_mismatch' ? true : undefined,
    );
    expect(await listed()).toMatchObject({ servable: false, last_check_at: expect.any(String) });
    expect(await offered(w, { device_id: 'support-1', fingerprint: 'shell-2', app_version: '1.9.0' })).toBe(
      base.id,
    );
    await waitFor('the range mismatch listed', async () =>
      (await listed()).reason === 'binary_range_mismatch' ? true : undefined,
    );
    expect(await offered(w, { device_id: 'support-1', ...fits })).toBe(pinned.id);
    await waitFor('the pin listed as served', async () =>
      (await listed()).servable === true ? true : undefined,
    );
    expect(await listed()).toMatchObject({ reason: null });

    // A pinned release rolled back is served to nobody; the listing says so at once.
    await w.client.modules.rollback(pinned.id);
    await settled(w);
    expect(await offered(w, { device_id: 'support-1', ...fits })).toBe(base.id);
    expect(await listed()).toMatchObject({ servable: false, reason: 'release_rolled_back' });
  });

  it('a pinned device is still counted against the device cap, and refused beyond it', async () => {
    const w = await world(ctx, 'hobby');
    const release = await pushBundle(w);
    await w.client.deviceOverrides.put(w.appId, 'pinned-capped', { module_id: release.id });
    // The workspace's 100 places are taken by other devices.
    const gate = new DeviceCapGate(ctx.deps.redis, ctx.deps.keys, {
      windowDays: ctx.config.devices.windowDays,
    });
    const now = Date.now();
    await ctx.deps.redis.zadd(
      gate.setKey(w.workspaceId),
      ...Array.from({ length: 100 }, (_, i) => [now, `other-${i}`]).flat(),
    );
    await settled(w);
    const res = await checkRaw(w, { device_id: 'pinned-capped' });
    expect(res.json()).toEqual({ update: null, reason: 'device_cap' });
  });

  it('CodePush: honoured by client_unique_id; the label of the pinned release is up to date', async () => {
    const w = await world(ctx, 'pro');
    await pushBundle(w, { version: '1.0.0' });
    await pushBundle(w, { version: 'beta-1', channel: 'beta' });
    const pinned = await pushBundle(w, { version: '0.9.0', channel: 'qa' });
    const key = await createKey(ctx, w.owner.headers, w.appId);
    await w.client.deviceOverrides.put(w.appId, 'cp-tester', { channel: 'beta' });
    await w.client.deviceOverrides.put(w.appId, 'cp-support', { module_id: pinned.id });
    await settled(w);
    const device = (id: string) => new Device(ctx.url!, key, id);
    expect(await offeredLabel(device('cp-tester'))).toBe('beta-1');
    expect(await offeredLabel(device('cp-tester'), { label: 'beta-1', packageHash: 'x' })).toBeNull();
    expect(await offeredLabel(device('cp-support'))).toBe('0.9.0');
    expect(await offeredLabel(device('cp-support'), { label: '0.9.0', packageHash: 'y' })).toBeNull();
    expect(await offeredLabel(device('cp-other'))).toBe('1.0.0');
  });

  it('Expo: honoured by eas-client-id; a release of another runtime version is not served', async () => {
    const w = await expoWorld(ctx, 'team');
    const production = await pushExport(w, { version: '1.0.0' });
    const beta = (await pushExport(w, { version: '1.1.0', channel: 'beta' })) as Release;
    const otherRuntime = await pushExport(w, { version: '2.0.0', channel: 'qa', runtimeVersion: '2.0.0' });
    await w.client.deviceOverrides.put(w.appId, 'expo-tester', { channel: 'beta' });
    await w.client.deviceOverrides.put(w.appId, 'expo-support', { module_id: otherRuntime.id });
    await settled({ ctx });
    const idOf = async (device: string) => {
      const res = await getManifest(ctx, w.appId, expoHeaders('ios', { 'eas-client-id': device }));
      return res.status === 204 ? null : (await partsOf(res)).manifest?.json.id;
    };
    expect(await idOf('expo-tester')).toBe(beta.id);
    expect(await idOf('expo-support')).toBe(production.id);
    expect(await idOf('expo-other')).toBe(production.id);
    const listed = async () =>
      (await w.client.deviceOverrides.list(w.appId)).overrides.find((o) => o.device_id === 'expo-support')!;
    await waitFor('the runtime mismatch listed', async () =>
      (await listed()).reason === 'fingerprint_mismatch' ? true : undefined,
    );
    // Pinned to a release of its own runtime version, on another channel: served.
    await w.client.deviceOverrides.put(w.appId, 'expo-support', { module_id: beta.id });
    await settled({ ctx });
    expect(await idOf('expo-support')).toBe(beta.id);
  });
});
