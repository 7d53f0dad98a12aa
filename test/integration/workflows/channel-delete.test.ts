import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../client/errors.js';
import { fileContext } from '../../helpers/context.js';
import { expoHeaders, expoWorld, getManifest, partsOf, pushExport } from '../expo/expo-world.js';
import { auditOf, offered, pushBundle, settled, world } from './world.js';

const ctx = fileContext({ listen: true });

const refusal = async (promise: Promise<unknown>) => {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'refused').toBeInstanceOf(ApiError);
  return { status: (err as ApiError).status, code: (err as ApiError).code };
};

describe("a pull request's preview channel", () => {
  it('is made by a release onto it, and deleting it withdraws its releases, its pins and keys, audited', async () => {
    const w = await world(ctx, 'pro');
    const prod = await pushBundle(w, { channel: 'production' });
    const first = await pushBundle(w, { channel: 'pr-123', version: '0.0.1' });
    const second = await pushBundle(w, { channel: 'pr-123', version: '0.0.2' });
    expect((await w.client.apps.channels(w.appId)).channels.map((c) => c.name)).toEqual([
      'production',
      'pr-123',
    ]);
    const key = await w.client.deploymentKeys.create(w.appId, 'pr-123');
    await w.client.deviceOverrides.put(w.appId, 'tester-1', { channel: 'pr-123' });
    await settled(w);
    expect(await offered(w, { device_id: 'tester-2', channel: 'pr-123' })).toBe(second.id);

    await w.client.apps.deleteChannel(w.appId, 'pr-123');
    await settled(w);
    // A tester's build still asks for the deleted channel: it is served what production serves.
    expect(await offered(w, { device_id: 'tester-2', channel: 'pr-123' })).toBe(prod.id);
    expect(await offered(w, { device_id: 'tester-1' })).toBe(prod.id);
    expect((await w.client.apps.channels(w.appId)).channels.map((c) => c.name)).toEqual(['production']);
    for (const withdrawn of [first, second])
      expect((await w.client.modules.get(withdrawn.id)).active).toBe(false);
    expect((await w.client.deploymentKeys.list(w.appId)).deployment_keys.map((k) => k.key)).not.toContain(
      key.key,
    );
    expect((await w.client.deviceOverrides.list(w.appId)).overrides).toEqual([]);
    expect((await auditOf(w, 'channel.delete')).map((e) => e.details)).toEqual([
      {
        channel: 'pr-123',
        releases: [
          { id: first.id, version: '0.0.1' },
          { id: second.id, version: '0.0.2' },
        ],
        devices: 1,
        deployment_keys: 1,
      },
    ]);

    // The pull request reopens: the same version may be pushed again and the channel is back.
    const again = await pushBundle(w, { channel: 'pr-123', version: '0.0.2' });
    await settled(w);
    expect(await offered(w, { device_id: 'tester-2', channel: 'pr-123' })).toBe(again.id);
    // A channel that never existed is not a deleted one: nothing is served from it.
    expect(await offered(w, { device_id: 'tester-2', channel: 'pr-404' })).toBeNull();
  });

  it('serves an Expo build made for a deleted channel what production serves, until it is made again', async () => {
    const w = await expoWorld(ctx, 'pro');
    const prod = await pushExport(w, { version: '1.0.0' });
    const preview = await pushExport(w, { version: '1.1.0', channel: 'pr-5' });
    await settled({ ctx });
    const servedId = async () => {
      const parts = await partsOf(
        await getManifest(
          ctx,
          w.appId,
          expoHeaders('ios', { 'expo-channel-name': 'pr-5', 'eas-client-id': 'e-1' }),
        ),
      );
      return parts.manifest?.json.id ?? null;
    };
    expect(await servedId()).toBe(preview.id);

    await w.client.apps.deleteChannel(w.appId, 'pr-5');
    await settled({ ctx });
    expect(await servedId()).toBe(prod.id);

    const again = await pushExport(w, { version: '1.2.0', channel: 'pr-5' });
    await settled({ ctx });
    expect(await servedId()).toBe(again.id);
  });

  it('refuses production (400), an unknown channel (404), and a release onto a new channel on hobby (402)', async () => {
    const w = await world(ctx, 'pro');
    await pushBundle(w, { channel: 'pr-7' });
    expect(await refusal(w.client.apps.deleteChannel(w.appId, 'production'))).toEqual({
      status: 400,
      code: 'production_not_deletable',
    });
    expect(await refusal(w.client.apps.deleteChannel(w.appId, 'pr-8'))).toEqual({
      status: 404,
      code: 'channel_not_found',
    });
    const hobby = await world(ctx, 'hobby');
    expect((await refusal(pushBundle(hobby, { channel: 'pr-9' }))).status).toBe(402);
    expect((await auditOf(w, 'channel.delete')).length).toBe(0);
  });
});
