import { describe, expect, it } from 'vitest';
import { OtaClient } from '../../../client/client.js';
import { ApiError } from '../../../client/errors.js';
import { bucketOf } from '../../../src/updates/bucket.js';
import { fileContext } from '../../helpers/context.js';
import { createKey, Device, offeredLabel } from '../codepush/harness.js';
import { expoHeaders, expoWorld, getManifest, partsOf, pushExport } from '../expo/expo-world.js';
import { auditOf, devicesIn, offered, outboxOf, pushBundle, settled, world } from './world.js';

const ctx = fileContext({ listen: true });

const refusal = async (promise: Promise<unknown>) => {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return { status: (err as ApiError).status, code: (err as ApiError).code };
};

describe('pause and resume: the control API', () => {
  it('pauses in place (rollout kept), audits rollout.change with paused, sends rollout.changed; twice records nothing', async () => {
    const w = await world(ctx, 'pro', 'Pause app');
    await pushBundle(w, { version: '1.0.0' });
    const staged = await pushBundle(w, { version: '1.1.0', rollout: 40 });
    expect(staged.paused).toBe(false);

    const paused = await w.client.modules.pause(staged.id);
    expect(paused).toMatchObject({ id: staged.id, paused: true, rollout_pct: 40, active: true });
    expect(await w.client.modules.pause(staged.id)).toMatchObject({ paused: true, rollout_pct: 40 });
    expect((await w.client.modules.get(staged.id)).paused).toBe(true);
    const listed = await w.client.apps.modules(w.appId);
    expect(listed.modules.map((m) => [m.version, m.paused])).toEqual([
      ['1.1.0', true],
      ['1.0.0', false],
    ]);

    const resumed = await w.client.modules.resume(staged.id);
    expect(resumed).toMatchObject({ paused: false, rollout_pct: 40 });
    expect(await w.client.modules.resume(staged.id)).toMatchObject({ paused: false });

    const entries = await auditOf(w, 'rollout.change');
    expect(entries.map((e) => e.details)).toEqual([
      {
        module_id: staged.id,
        version: '1.1.0',
        channel: 'production',
        rollout_pct: 40,
        old: { paused: false },
        new: { paused: true },
      },
      {
        module_id: staged.id,
        version: '1.1.0',
        channel: 'production',
        rollout_pct: 40,
        old: { paused: true },
        new: { paused: false },
      },
    ]);
    const events = await outboxOf(w, 'rollout.changed');
    expect(events.map((e) => e.data)).toEqual([
      {
        app_id: w.appId,
        app_name: 'Pause app',
        module_id: staged.id,
        version: '1.1.0',
        channel: 'production',
        old_rollout_pct: 40,
        rollout_pct: 40,
        paused: true,
      },
      {
        app_id: w.appId,
        app_name: 'Pause app',
        module_id: staged.id,
        version: '1.1.0',
        channel: 'production',
        old_rollout_pct: 40,
        rollout_pct: 40,
        paused: false,
      },
    ]);
  });

  it('is open to every plan, refused to viewers, for a rolled-back release and another workspace’s', async () => {
    const w = await world(ctx, 'hobby');
    const first = await pushBundle(w);
    const second = await pushBundle(w);
    expect((await w.client.modules.pause(second.id)).paused).toBe(true);

    const viewer = await w.client.apiKeys.create(w.workspaceId, { name: 'viewer', role: 'viewer' });
    const asViewer = new OtaClient({ baseUrl: ctx.url!, credentials: { apiKey: viewer.key } });
    expect(await refusal(asViewer.modules.resume(second.id))).toEqual({ status: 403, code: 'forbidden' });

    await w.client.modules.rollback(second.id);
    expect(await refusal(w.client.modules.resume(second.id))).toMatchObject({
      status: 409,
      code: 'release_inactive',
    });
    const other = await world(ctx, 'team');
    expect(await refusal(other.client.modules.pause(first.id))).toMatchObject({
      status: 404,
      code: 'release_not_found',
    });
    expect(await w.client.modules.get(first.id)).toMatchObject({ paused: false });
  });
});

describe('pause and resume: what devices are offered', () => {
  it('/updates/check: no new device is offered a paused release, devices that run it keep it, resume restores its rollout', async () => {
    const w = await world(ctx, 'pro');
    const base = await pushBundle(w);
    const staged = await pushBundle(w, { rollout: 50 });
    const inside = devicesIn(bucketOf, staged.id, 50, true, 6, 'in');
    const [running, ...fresh] = inside;
    expect(await offered(w, { device_id: running! })).toBe(staged.id);

    await w.client.modules.pause(staged.id);
    await settled(w);
    for (const device of fresh) expect(await offered(w, { device_id: device })).toBe(base.id);
    // A device that runs it keeps it: nothing to install.
    expect(await offered(w, { device_id: running!, current_module_id: staged.id })).toBeNull();
    // A device on the release below is not moved onto the paused one.
    expect(await offered(w, { device_id: fresh[0]!, current_module_id: base.id })).toBeNull();

    await w.client.modules.resume(staged.id);
    await settled(w);
    for (const device of fresh) expect(await offered(w, { device_id: device })).toBe(staged.id);
    // The rollout is the one it had: devices outside its 50 % still get the release below.
    for (const device of devicesIn(bucketOf, staged.id, 50, false, 5, 'out'))
      expect(await offered(w, { device_id: device })).toBe(base.id);
  });

  it('a newer release still reaches the devices that run a paused one', async () => {
    const w = await world(ctx, 'pro');
    await pushBundle(w);
    const paused = await pushBundle(w);
    await w.client.modules.pause(paused.id);
    const newer = await pushBundle(w);
    await settled(w);
    expect(await offered(w, { device_id: 'phone', current_module_id: paused.id })).toBe(newer.id);
  });

  it('CodePush: decided by the label the device runs', async () => {
    const w = await world(ctx, 'pro');
    const base = await pushBundle(w, { version: '2.0.0' });
    const top = await pushBundle(w, { version: '2.1.0' });
    const key = await createKey(ctx, w.owner.headers, w.appId);
    const device = (id: string) => new Device(ctx.url!, key, id);
    expect(await offeredLabel(device('cp-1'))).toBe('2.1.0');

    await w.client.modules.pause(top.id);
    await settled(w);
    // A device that runs 2.1.0 keeps it; one on 2.0.0 (or the binary) is not moved onto it.
    expect(await offeredLabel(device('cp-1'), { label: '2.1.0', packageHash: top.sha256 })).toBeNull();
    expect(await offeredLabel(device('cp-2'), { label: '2.0.0', packageHash: base.sha256 })).toBeNull();
    expect(await offeredLabel(device('cp-3'))).toBe('2.0.0');
  });

  it('Expo: a device on a paused release keeps it (no rollBackToEmbedded); other devices get the one below', async () => {
    const w = await expoWorld(ctx, 'team');
    const a = await pushExport(w, { version: '1.0.0' });
    const b = await pushExport(w, { version: '1.1.0' });
    await w.client.modules.pause(b.id);
    const onB = { 'eas-client-id': 'expo-device-1', 'expo-current-update-id': b.id };
    const onA = { 'eas-client-id': 'expo-device-2', 'expo-current-update-id': a.id };
    await settled({ ctx });
    const kept = await getManifest(ctx, w.appId, expoHeaders('ios', onB));
    expect(kept.status, kept.body.toString()).toBe(204);
    expect((await getManifest(ctx, w.appId, expoHeaders('android', onA))).status).toBe(204);
    const fresh = await partsOf(
      await getManifest(ctx, w.appId, expoHeaders('ios', { 'eas-client-id': 'new' })),
    );
    expect(fresh.manifest?.json.id).toBe(a.id);
    expect(fresh.directive).toBeUndefined();
  });
});
