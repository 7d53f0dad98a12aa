import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bucket } from '../../../sdk/bucket.js';
import { DeviceCapGate } from '../../../src/devices/device-cap.js';
import { DIRECTIVE_DELAY_MS } from '../../../src/expo/expo.manifest.js';
import { ExpoUpdatesService } from '../../../src/expo/expo-updates.service.js';
import { fileContext } from '../../helpers/context.js';
import { eventually } from '../../helpers/devices.js';
import { type StartedWorkers, startAllWorkers } from '../../helpers/workers.js';
import { expoHeaders, expoWorld, getManifest, partsOf, pushExport } from './expo-world.js';

/**
 * Which answer each device gets: the same buckets, stacked rollouts, rollback and caps as /updates/check,
 * with eas-client-id as the device, and rollBackToEmbedded when a device must leave what it runs.
 */
let workers: StartedWorkers | undefined;

const ctx = fileContext({ listen: true });
beforeAll(async () => {
  workers = await startAllWorkers(ctx);
}, 120_000);

afterAll(async () => {
  await workers?.stop();
});

type Answer = { kind: 'manifest'; id: string } | { kind: 'directive'; commitTime: string } | { kind: 'none' };

async function ask(
  appId: string,
  platform: 'ios' | 'android',
  extra: Record<string, string>,
): Promise<Answer> {
  const res = await getManifest(ctx, appId, expoHeaders(platform, extra));
  if (res.status === 204) return { kind: 'none' };
  const parts = await partsOf(res);
  if (parts.directive) {
    expect(parts.directive.json.type).toBe('rollBackToEmbedded');
    return { kind: 'directive', commitTime: parts.directive.json.parameters!.commitTime! };
  }
  return { kind: 'manifest', id: parts.manifest!.json.id };
}

const devices = Array.from(
  { length: 40 },
  (_, i) => `0a1b2c3d-0000-4000-8000-${String(i).padStart(12, '0')}`,
);

describe('Expo releases: buckets, stacked rollouts and rollback', () => {
  it('serves a staged release by the published bucket of eas-client-id, and the older one to the rest', async () => {
    // Team: no device cap, so a device without an id can be served at all.
    const world = await expoWorld(ctx, 'team');
    const a = await pushExport(world, { version: '1.0.0' });
    const b = await pushExport(world, { version: '1.1.0', rollout: 30 });
    for (const device of devices) {
      const answer = await ask(world.appId, 'ios', { 'eas-client-id': device });
      const expected = bucket(b.id, device) < 30 ? b.id : a.id;
      expect(answer, device).toEqual({ kind: 'manifest', id: expected });
    }
    // Without a device id there is no bucket: only releases at 100 % are served.
    expect(await ask(world.appId, 'android', {})).toEqual({ kind: 'manifest', id: a.id });
  });

  it('sends rollBackToEmbedded to devices on a rolled-back release with nothing newer, and leaves others', async () => {
    const world = await expoWorld(ctx, 'pro');
    const a = await pushExport(world, { version: '1.0.0' });
    const b = await pushExport(world, { version: '1.1.0' });
    const onB = { 'eas-client-id': devices[0]!, 'expo-current-update-id': b.id };
    expect(await ask(world.appId, 'ios', onB)).toEqual({ kind: 'none' });

    await world.client.modules.rollback(b.id);
    await eventually('the rollback reaches the manifest', async () => {
      const answer = await ask(world.appId, 'ios', onB);
      return answer.kind === 'directive' ? answer : undefined;
    }).then((answer) => {
      // Dated after B, so expo-updates (which orders by commit time) applies it.
      const commitTime = (answer as { commitTime: string }).commitTime;
      expect(Date.parse(commitTime)).toBe(Date.parse(b.created_at) + DIRECTIVE_DELAY_MS);
    });
    // A device on A, or on the embedded bundle, is not sent back: A is what it gets, or already runs.
    expect(
      await ask(world.appId, 'ios', { 'eas-client-id': devices[1]!, 'expo-current-update-id': a.id }),
    ).toEqual({
      kind: 'none',
    });
    expect(await ask(world.appId, 'ios', { 'eas-client-id': devices[2]! })).toEqual({
      kind: 'manifest',
      id: a.id,
    });
    // A release pushed after B reaches the devices that ran B.
    const c = await pushExport(world, { version: '1.2.0' });
    await eventually('the new release reaches the manifest', async () => {
      const answer = await ask(world.appId, 'ios', onB);
      return answer.kind === 'manifest' ? answer : undefined;
    }).then((answer) => expect(answer).toEqual({ kind: 'manifest', id: c.id }));
  });

  it('sends devices outside a lowered rollout, or on a release paused to 0 %, back to the embedded update', async () => {
    const world = await expoWorld(ctx, 'pro');
    const only = await pushExport(world, { version: '1.0.0', rollout: 50 });
    const inside = devices.filter((d) => bucket(only.id, d) < 50);
    const lowered = inside.filter((d) => bucket(only.id, d) >= 20);
    const kept = inside.filter((d) => bucket(only.id, d) < 20);
    expect(lowered.length).toBeGreaterThan(0);
    expect(kept.length).toBeGreaterThan(0);
    await world.client.modules.setRollout(only.id, 20);
    for (const device of inside) {
      const answer = await ask(world.appId, 'android', {
        'eas-client-id': device,
        'expo-current-update-id': only.id,
      });
      expect(answer.kind, device).toBe(kept.includes(device) ? 'none' : 'directive');
    }
    await world.client.modules.setRollout(only.id, 0);
    const answer = await ask(world.appId, 'android', {
      'eas-client-id': kept[0]!,
      'expo-current-update-id': only.id,
    });
    expect(answer.kind).toBe('directive');
    // A device that never ran it has nothing to leave.
    expect(await ask(world.appId, 'android', { 'eas-client-id': kept[0]! })).toEqual({ kind: 'none' });
  });

  it('serves a platform only the releases that have it, and a runtime only its own releases', async () => {
    const world = await expoWorld(ctx, 'team');
    const both = await pushExport(world, { version: '1.0.0' });
    const iosOnly = await pushExport(world, { version: '1.1.0', platforms: ['ios'] });
    const other = await pushExport(world, { version: '2.0.0', runtimeVersion: '2.0.0' });
    expect(await ask(world.appId, 'ios', {})).toEqual({ kind: 'manifest', id: iosOnly.id });
    expect(await ask(world.appId, 'android', {})).toEqual({ kind: 'manifest', id: both.id });
    expect(await ask(world.appId, 'ios', { 'expo-runtime-version': '2.0.0' })).toEqual({
      kind: 'manifest',
      id: other.id,
    });
    const app = await world.client.apps.get(world.appId);
    expect((app.fingerprints as Array<{ fingerprint: string }>).map((f) => f.fingerprint).sort()).toEqual([
      '1.0.0',
      '2.0.0',
    ]);
  });
});

describe('Expo devices: caps and failure reports', () => {
  it('counts eas-client-id against the device cap: the 101st device of a hobby workspace gets nothing', async () => {
    const world = await expoWorld(ctx, 'hobby');
    const release = await pushExport(world, { version: '1.0.0' });
    const counted = Array.from({ length: 100 }, (_, i) => `counted-${i}`);
    const gate = new DeviceCapGate(ctx.deps.redis, ctx.deps.keys, { windowDays: 30 });
    await ctx.deps.redis.zadd(gate.setKey(world.workspaceId), ...counted.flatMap((d) => [Date.now(), d]));
    expect(await ask(world.appId, 'ios', { 'eas-client-id': 'newcomer-101' })).toEqual({ kind: 'none' });
    expect(await ask(world.appId, 'ios', { 'eas-client-id': counted[7]! })).toEqual({
      kind: 'manifest',
      id: release.id,
    });
    // Nothing to count a device by on a capped plan: nothing is served.
    expect(await ask(world.appId, 'ios', {})).toEqual({ kind: 'none' });
  });

  it('counts expo-recent-failed-update-ids as one error per device and release, repeats included', async () => {
    const world = await expoWorld(ctx, 'team');
    const release = await pushExport(world, { version: '1.0.0' });
    const failed = `"${release.id}", "${release.id.toUpperCase()}", "11111111-2222-4333-8444-555555555555"`;
    for (const device of ['crash-1', 'crash-1', 'crash-2', 'crash-1']) {
      await ask(world.appId, 'ios', { 'eas-client-id': device, 'expo-recent-failed-update-ids': failed });
    }
    // Another API process (or this one restarted) hears the same report again: still one per device.
    const other = new ExpoUpdatesService(
      ctx.deps.services.updates,
      ctx.deps.services.eventIngest,
      ctx.deps.log,
    );
    await other.answer({
      client: { ip: '127.0.0.1' },
      appId: world.appId,
      protocolVersion: '1',
      platform: 'android',
      runtimeVersion: '1.0.0',
      channel: undefined,
      accept: undefined,
      easClientId: 'crash-2',
      currentUpdateId: undefined,
      expectSignature: undefined,
      failedUpdateIds: failed,
    });
    // Events are stored in the order they were taken: once this one counts, the reports before it do.
    await world.client.devices.events(world.appId, [
      { id: 'sentinel', device_id: 'crash-3', module_id: release.id, type: 'activation' },
    ]);
    const stats = await eventually('the sentinel in the release stats', async () => {
      const r = await world.client.modules.get(release.id);
      return r.stats.activations === 1 ? r.stats : undefined;
    });
    expect(stats.errors).toBe(2);
  });
});
