import { describe, expect, it, vi } from 'vitest';
import type { Plan } from '../../../src/plans/plans.js';
import { createReleaseRefsService } from '../../../src/releases/release-refs.service.js';
import { createReleasesService } from '../../../src/releases/releases.service.js';
import { createFakeStores, principal } from '../../helpers/fakes.js';

const SHA = 'cd'.repeat(32);

async function world(plan: Plan = 'pro') {
  const stores = createFakeStores();
  const invalidate = vi.fn(async () => {});
  const ws = stores.workspaces.add({ plan });
  const app = (await stores.transaction((tx) => stores.apps.insert(tx, ws.id, 'Shop')))!;
  await stores.bundles.record(app.id, SHA, 1234);
  const releases = createReleasesService(stores, { invalidate });
  const dev = principal(ws.id, 'developer');
  const push = (version: string, more: { rollout_pct?: number; channel?: string } = {}) =>
    releases.push(dev, { app_id: app.id, version, sha256: SHA, ...more });
  /** What a change left behind: rows, audit entries and outbox events. */
  const written = () => ({
    releases: stores.releases.rows.map((r) => ({ ...r })),
    audit: stores.audit.entries.length,
    outbox: stores.outbox.rows.length,
  });
  return { stores, invalidate, ws, app, releases, dev, push, written };
}

describe('ReleasesService on fake stores', () => {
  it('pushes a release with its module.push entry and release.pushed event in one transaction', async () => {
    const { stores, invalidate, ws, app, dev, push } = await world();
    const committed = stores.transactions.committed;
    const row = await push('1.0.0', { rollout_pct: 20 });
    expect(row).toMatchObject({ app_id: app.id, version: '1.0.0', channel: 'production', size: 1234 });
    expect(stores.audit.entries).toEqual([
      expect.objectContaining({
        workspace_id: ws.id,
        app_id: app.id,
        actor: dev.actor,
        action: 'module.push',
        details: expect.objectContaining({ module_id: row.id, version: '1.0.0', rollout_pct: 20 }),
      }),
    ]);
    expect(stores.outbox.rows).toEqual([
      expect.objectContaining({
        workspaceId: ws.id,
        event: 'release.pushed',
        data: expect.objectContaining({ app_id: app.id, module_id: row.id, rollout_pct: 20 }),
      }),
    ]);
    expect(stores.transactions.committed).toBe(committed + 1);
    expect(invalidate).toHaveBeenCalledWith({ appId: app.id });
  });

  it('refuses a version the channel already has with 409, writing nothing', async () => {
    const { stores, invalidate, push, written } = await world();
    const first = await push('1.0.0');
    const before = written();
    invalidate.mockClear();
    await expect(push('1.0.0')).rejects.toMatchObject({ status: 409, code: 'version_exists' });
    expect(written()).toEqual(before);
    expect(stores.transactions.rolledBack).toBe(1);
    expect(invalidate).not.toHaveBeenCalled();
    // Another channel may carry the same version.
    expect((await push('1.0.0', { channel: 'beta' })).id).not.toBe(first.id);
  });

  it('changes a rollout once, recording old and new; the same value again records nothing', async () => {
    const { stores, invalidate, releases, dev, push } = await world();
    const row = await push('1.0.0', { rollout_pct: 10 });
    const changed = await releases.changeRollout(dev, row.id, 50);
    expect(changed).toMatchObject({ id: row.id, rollout_pct: 50 });
    expect(stores.audit.entries.at(-1)).toMatchObject({
      action: 'rollout.change',
      details: expect.objectContaining({ old: { rollout_pct: 10 }, new: { rollout_pct: 50 } }),
    });
    expect(stores.outbox.rows.at(-1)).toMatchObject({
      event: 'rollout.changed',
      data: expect.objectContaining({ old_rollout_pct: 10, rollout_pct: 50 }),
    });
    const entries = stores.audit.entries.length;
    invalidate.mockClear();
    expect(await releases.changeRollout(dev, row.id, 50)).toMatchObject({ rollout_pct: 50 });
    expect(stores.audit.entries).toHaveLength(entries);
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('rolls back to the newest earlier active release, with its entry and rollback event', async () => {
    const { stores, invalidate, app, releases, dev, push } = await world();
    const v1 = await push('1.0.0');
    const v2 = await push('1.1.0');
    invalidate.mockClear();
    const result = await releases.rollback(dev, v2.id);
    expect(result.rolled_back).toMatchObject({ id: v2.id, active: false });
    expect(result.rolled_back.rolled_back_at).toBeInstanceOf(Date);
    expect(result.active).toMatchObject({ id: v1.id, active: true });
    expect(stores.audit.entries.at(-1)).toMatchObject({
      action: 'module.rollback',
      details: expect.objectContaining({
        rolled_back: { module_id: v2.id, version: '1.1.0' },
        active: { module_id: v1.id, version: '1.0.0', rollout_pct: 100 },
      }),
    });
    expect(stores.outbox.rows.at(-1)).toMatchObject({ event: 'rollback' });
    expect(invalidate).toHaveBeenCalledWith({ appId: app.id });
    // A rolled-back release can neither be rolled back again nor have its rollout changed.
    await expect(releases.rollback(dev, v2.id)).rejects.toMatchObject({ status: 409 });
    await expect(releases.changeRollout(dev, v2.id, 5)).rejects.toMatchObject({ code: 'release_inactive' });
  });

  it('a refused action writes nothing: no earlier release, plan gate, role, unknown id', async () => {
    const paid = await world();
    const only = await paid.push('1.0.0');
    const before = paid.written();
    await expect(paid.releases.rollback(paid.dev, only.id)).rejects.toMatchObject({
      status: 409,
      code: 'no_previous_release',
    });
    const viewer = principal(paid.ws.id, 'viewer');
    await expect(paid.releases.changeRollout(viewer, only.id, 5)).rejects.toMatchObject({ status: 403 });
    const stranger = principal(paid.stores.workspaces.add({ plan: 'pro' }).id, 'developer');
    await expect(paid.releases.rollback(stranger, only.id)).rejects.toMatchObject({ status: 404 });
    expect(paid.written()).toEqual(before);

    const hobby = await world('hobby');
    const row = await hobby.push('1.0.0');
    const hobbyBefore = hobby.written();
    await expect(hobby.push('1.1.0', { rollout_pct: 50 })).rejects.toMatchObject({ status: 402 });
    await expect(hobby.push('1.1.0', { channel: 'beta' })).rejects.toMatchObject({ status: 402 });
    await expect(hobby.releases.changeRollout(hobby.dev, row.id, 50)).rejects.toMatchObject({ status: 402 });
    expect(hobby.written()).toEqual(hobbyBefore);
  });

  it('a push hook that refuses undoes the push in full', async () => {
    const { app, releases, dev, written } = await world();
    const before = written();
    const attempt = releases.push(
      dev,
      { app_id: app.id, version: '3.0.0', sha256: SHA },
      {
        afterInsert: async () => {
          throw new Error('signature part refused');
        },
      },
    );
    await expect(attempt).rejects.toThrow('signature part refused');
    expect(written()).toEqual(before);
  });
});

describe('ReleaseRefsService on fake stores', () => {
  it('finds releases by version or id prefix and preflights a push', async () => {
    const { stores, app, dev, push } = await world();
    const refs = createReleaseRefsService(stores, { bundleMaxBytes: 2000 });
    const row = await push('1.0.0');
    expect((await refs.lookup(dev, { ref: '1.0.0' })).map((r) => r.id)).toEqual([row.id]);
    expect((await refs.lookup(dev, { ref: row.id.slice(0, 6).toUpperCase() })).map((r) => r.id)).toEqual([
      row.id,
    ]);
    expect(await refs.preflight(dev, { app_id: app.id, version: '1.1.0', size: 10 })).toMatchObject({
      allowed: true,
      channel: 'production',
    });
    await expect(refs.preflight(dev, { app_id: app.id, version: '1.0.0' })).rejects.toMatchObject({
      status: 409,
    });
    await expect(refs.preflight(dev, { app_id: app.id, size: 2001 })).rejects.toMatchObject({ status: 413 });
  });
});
