import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { createChannelsService } from '../../../src/channels/channels.service.js';
import { directiveBytes } from '../../../src/expo/expo.manifest.js';
import {
  createDeviceOverridesService,
  MAX_OVERRIDES_PER_APP,
} from '../../../src/overrides/device-overrides.service.js';
import type { Plan } from '../../../src/plans/plans.js';
import { createPromotionService } from '../../../src/promotion/promotion.service.js';
import { createReleasesService } from '../../../src/releases/releases.service.js';
import { createReleaseDraftsService } from '../../../src/signing/drafts.service.js';
import { createFakeStores, principal } from '../../helpers/fakes.js';

const SHA = 'ef'.repeat(32);

async function world(plan: Plan = 'pro') {
  const stores = createFakeStores();
  const invalidate = vi.fn(async () => {});
  const ws = stores.workspaces.add({ plan });
  const app = (await stores.transaction((tx) => stores.apps.insert(tx, ws.id, 'Shop')))!;
  await stores.bundles.record(app.id, SHA, 4321);
  const releases = createReleasesService(stores, { invalidate });
  const drafts = createReleaseDraftsService(stores, { releases });
  const promotion = createPromotionService(stores, { releases, drafts });
  const checks = { read: vi.fn(async () => new Map()), forget: vi.fn(async () => {}) };
  const overrides = createDeviceOverridesService(stores, {
    invalidate,
    checks,
    log: pino({ level: 'silent' }),
  });
  const channels = createChannelsService(stores, { invalidate });
  const dev = principal(ws.id, 'developer');
  const push = (version: string, more: { rollout_pct?: number; channel?: string } = {}) =>
    releases.push(dev, { app_id: app.id, version, sha256: SHA, ...more });
  const written = () => ({ audit: stores.audit.entries.length, outbox: stores.outbox.rows.length });
  return { stores, invalidate, ws, app, releases, promotion, overrides, channels, dev, push, written };
}

describe('pause and resume on fake stores', () => {
  it('flips paused in place, keeps the rollout, records each change once and nothing for the same state', async () => {
    const { stores, invalidate, releases, dev, push } = await world('hobby');
    const row = await push('1.0.0');
    invalidate.mockClear();
    expect(await releases.setPaused(dev, row.id, true)).toMatchObject({ paused: true, rollout_pct: 100 });
    expect(await releases.setPaused(dev, row.id, true)).toMatchObject({ paused: true });
    expect(await releases.setPaused(dev, row.id, false)).toMatchObject({ paused: false });
    const changes = stores.audit.entries.filter((e) => e.action === 'rollout.change');
    expect(changes.map((e) => [e.details.old, e.details.new])).toEqual([
      [{ paused: false }, { paused: true }],
      [{ paused: true }, { paused: false }],
    ]);
    expect(stores.outbox.rows.filter((r) => r.event === 'rollout.changed')).toHaveLength(2);
    expect(invalidate).toHaveBeenCalledTimes(2);
  });

  it('refuses viewers and a rolled-back release, writing nothing', async () => {
    const { ws, releases, dev, push, written } = await world();
    await push('1.0.0');
    const top = await push('1.1.0');
    await expect(releases.setPaused(principal(ws.id, 'viewer'), top.id, true)).rejects.toMatchObject({
      status: 403,
    });
    await releases.rollback(dev, top.id);
    const before = written();
    await expect(releases.setPaused(dev, top.id, true)).rejects.toMatchObject({
      status: 409,
      code: 'release_inactive',
    });
    expect(written()).toEqual(before);
  });
});

describe('promotion on fake stores', () => {
  it('pushes the same bytes and metadata on the target channel with promoted_from', async () => {
    const { stores, promotion, dev, push } = await world();
    const source = await push('2.0.0', { channel: 'staging' });
    const result = await promotion.promote(dev, source.id, { channel: 'production', rollout_pct: 30 });
    expect(result.kind).toBe('release');
    const copy = result.kind === 'release' ? result.release : undefined;
    expect(copy).toMatchObject({
      version: '2.0.0',
      channel: 'production',
      rollout_pct: 30,
      sha256: SHA,
      size: 4321,
      promoted_from: source.id,
      promoted_from_channel: 'staging',
    });
    const entry = stores.audit.entries.at(-1)!;
    expect(entry.details.promoted_from).toEqual({ module_id: source.id, channel: 'staging' });
    await expect(promotion.promote(dev, source.id, { channel: 'production' })).rejects.toMatchObject({
      status: 409,
      code: 'version_exists',
    });
  });

  it('re-dates Expo manifests and the directive for the copy; a signed release needs a key', async () => {
    const { stores, promotion, dev, push } = await world();
    const source = await push('3.0.0', { channel: 'staging' });
    const manifest = (id: string) =>
      Buffer.from(
        JSON.stringify({ id, createdAt: '2020-01-01T00:00:00.000Z', runtimeVersion: '1', assets: [1] }),
      );
    await stores.transaction((tx) =>
      stores.manifests.insertParts(tx, source, [
        { part: 'ios', body: manifest(source.id), signature: null, keyId: null },
        { part: 'directive', body: directiveBytes(source.created_at), signature: null, keyId: null },
      ]),
    );
    const result = await promotion.promote(dev, source.id, { channel: 'production' });
    const copy = result.kind === 'release' ? result.release : undefined;
    const parts = await stores.manifests.parts(copy!.id);
    const ios = JSON.parse(parts.find((p) => p.part === 'ios')!.body.toString());
    expect(ios).toEqual({
      id: copy!.id,
      createdAt: copy!.created_at.toISOString(),
      runtimeVersion: '1',
      assets: [1],
    });
    expect(parts.find((p) => p.part === 'directive')!.body).toEqual(directiveBytes(copy!.created_at));

    const signed = await push('4.0.0', { channel: 'staging' });
    await stores.transaction((tx) =>
      stores.manifests.insertParts(tx, signed, [
        { part: 'check', body: Buffer.from('{}'), signature: 'c2lnbmF0dXJlLWJ5dGVzLWhlcmU=', keyId: 'main' },
      ]),
    );
    await expect(promotion.promote(dev, signed.id, { channel: 'production' })).rejects.toMatchObject({
      status: 400,
      code: 'signature_required',
    });
    const draft = await promotion.promote(dev, signed.id, { channel: 'production', key_id: 'main' });
    expect(draft.kind).toBe('draft');
    const check =
      draft.kind === 'draft' ? JSON.parse(Buffer.from(draft.draft.parts.check!, 'base64').toString()) : {};
    expect(check).toMatchObject({
      module_id: draft.kind === 'draft' ? draft.draft.id : '',
      channel: 'production',
    });
  });
});

describe('device overrides and channels on fake stores', () => {
  it(`pins at most ${MAX_OVERRIDES_PER_APP} devices per app; a replaced pin is not a new one`, async () => {
    const { stores, app, ws, overrides, dev } = await world();
    // A device is pinned only to a channel the app has (one with a release): the fake is told.
    stores.apps.addChannel(app.id, 'beta');
    stores.apps.addChannel(app.id, 'qa');
    for (let i = 0; i < MAX_OVERRIDES_PER_APP; i++)
      stores.deviceOverrides.rows.push({
        app_id: app.id,
        device_id: `d-${i}`,
        channel: 'beta',
        release_id: null,
        created_at: new Date(0),
      });
    await expect(overrides.put(dev, app.id, 'one-more', { channel: 'beta' })).rejects.toMatchObject({
      status: 409,
      code: 'too_many_overrides',
    });
    expect(await overrides.put(dev, app.id, 'd-1', { channel: 'qa' })).toMatchObject({ channel: 'qa' });
    const hobby = principal(stores.workspaces.add({ plan: 'hobby' }).id, 'developer');
    await expect(overrides.put(hobby, app.id, 'x', { channel: 'beta' })).rejects.toMatchObject({
      status: 404,
    });
    expect(ws.id).toBeDefined();
  });

  it('lists channels with their setting, records a change once, refuses production false', async () => {
    const { stores, app, channels, dev, push, invalidate } = await world();
    await push('1.0.0', { channel: 'beta' });
    // Channels come from releases, another store's rows: the fake is told.
    stores.apps.addChannel(app.id, 'beta');
    invalidate.mockClear();
    expect(await channels.list(dev, app.id)).toEqual([
      { name: 'production', allow_device_self_assign: true },
      { name: 'beta', allow_device_self_assign: false },
    ]);
    await channels.update(dev, app.id, 'beta', true);
    await channels.update(dev, app.id, 'beta', true);
    expect(stores.audit.entries.filter((e) => e.action === 'channel.change')).toHaveLength(1);
    expect(invalidate).toHaveBeenCalledTimes(1);
    await expect(channels.update(dev, app.id, 'production', false)).rejects.toMatchObject({ status: 400 });
    await expect(channels.update(dev, app.id, 'nightly', true)).rejects.toMatchObject({
      status: 404,
      code: 'channel_not_found',
    });
  });
});
