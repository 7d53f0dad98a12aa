import { describe, expect, it } from 'vitest';
import { OtaClient } from '../../../client/client.js';
import { ApiError } from '../../../client/errors.js';
import { allowsSelfAssign, selfAssignableChannels } from '../../../src/channels/channel-rules.js';
import { fileContext } from '../../helpers/context.js';
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

describe('channels as a resource', () => {
  it('lists production (always self-assignable) and every channel with a release; a change is audited once', async () => {
    const w = await world(ctx, 'pro');
    expect((await w.client.apps.channels(w.appId)).channels).toEqual([
      { name: 'production', allow_device_self_assign: true },
    ]);
    await pushBundle(w, { channel: 'beta' });
    await pushBundle(w, { channel: 'staging' });
    expect((await w.client.apps.channels(w.appId)).channels).toEqual([
      { name: 'production', allow_device_self_assign: true },
      { name: 'beta', allow_device_self_assign: false },
      { name: 'staging', allow_device_self_assign: false },
    ]);
    expect(await w.client.apps.setChannel(w.appId, 'beta', { allow_device_self_assign: true })).toEqual({
      name: 'beta',
      allow_device_self_assign: true,
    });
    await w.client.apps.setChannel(w.appId, 'beta', { allow_device_self_assign: true });
    await w.client.apps.setChannel(w.appId, 'production', { allow_device_self_assign: true });
    expect((await w.client.apps.channels(w.appId)).channels[1]).toEqual({
      name: 'beta',
      allow_device_self_assign: true,
    });
    await w.client.apps.setChannel(w.appId, 'beta', { allow_device_self_assign: false });
    expect((await auditOf(w, 'channel.change')).map((e) => e.details)).toEqual([
      { channel: 'beta', old: { allow_device_self_assign: false }, new: { allow_device_self_assign: true } },
      { channel: 'beta', old: { allow_device_self_assign: true }, new: { allow_device_self_assign: false } },
    ]);
  });

  it('refuses production false (400), a channel without a release (404), hobby (402) and viewers (403)', async () => {
    const w = await world(ctx, 'pro');
    await pushBundle(w, { channel: 'beta' });
    const before = (await auditOf(w)).length;
    expect(
      await refusal(w.client.apps.setChannel(w.appId, 'production', { allow_device_self_assign: false })),
    ).toEqual({ status: 400, code: 'production_always_self_assignable' });
    expect(
      await refusal(w.client.apps.setChannel(w.appId, 'nightly', { allow_device_self_assign: true })),
    ).toEqual({
      status: 404,
      code: 'channel_not_found',
    });
    expect(
      await refusal(w.client.apps.setChannel(w.appId, 'Beta', { allow_device_self_assign: true })),
    ).toMatchObject({
      status: 400,
    });
    await ctx.deps.db.query("UPDATE workspaces SET plan = 'hobby' WHERE id = $1", [w.workspaceId]);
    expect(
      await refusal(w.client.apps.setChannel(w.appId, 'beta', { allow_device_self_assign: true })),
    ).toEqual({
      status: 402,
      code: 'plan_upgrade_required',
    });
    const viewer = await w.client.apiKeys.create(w.workspaceId, { name: 'viewer', role: 'viewer' });
    const asViewer = new OtaClient({ baseUrl: ctx.url!, credentials: { apiKey: viewer.key } });
    expect((await asViewer.apps.channels(w.appId)).channels).toHaveLength(2);
    expect(
      await refusal(asViewer.apps.setChannel(w.appId, 'production', { allow_device_self_assign: true })),
    ).toEqual({ status: 403, code: 'forbidden' });
    const other = await world(ctx, 'team');
    expect(await refusal(other.client.apps.channels(w.appId))).toMatchObject({ status: 404 });
    // Only the viewer's key was recorded (api_key.create): no refusal wrote anything.
    expect((await auditOf(w)).slice(before).map((e) => e.action)).toEqual(['api_key.create']);
  });

  it('travels with the app’s routing state: self-assignment is answered from memory', async () => {
    const w = await world(ctx, 'team');
    const production = await pushBundle(w);
    const beta = await pushBundle(w, { channel: 'beta' });
    await pushBundle(w, { channel: 'staging' });
    await offered(w, { device_id: 'warm' });
    const route = async () => (await ctx.deps.services.routing.get(w.appId))!;
    expect(allowsSelfAssign(await route(), 'beta')).toBe(false);
    expect(allowsSelfAssign(await route(), 'production')).toBe(true);
    await w.client.apps.setChannel(w.appId, 'beta', { allow_device_self_assign: true });
    await settled(w);
    expect(allowsSelfAssign(await route(), 'beta')).toBe(true);
    expect(allowsSelfAssign(await route(), 'staging')).toBe(false);
    expect(allowsSelfAssign(await route(), 'unknown')).toBe(false);
    expect(selfAssignableChannels(await route())).toEqual(['production', 'beta']);
    // The channel an app is built for is served as before, whatever its setting.
    expect(await offered(w, { device_id: 'd', channel: 'staging' })).not.toBeNull();
    expect(await offered(w, { device_id: 'd', channel: 'beta' })).toBe(beta.id);
    expect(await offered(w, { device_id: 'd' })).toBe(production.id);
  });
});
