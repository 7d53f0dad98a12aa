import { describe, expect, it, vi } from 'vitest';
import { createAuditService } from '../../../src/audit/audit.service.js';
import type { Plan } from '../../../src/plans/plans.js';
import { AppError } from '../../../src/platform/errors.js';
import { createFakeStores, principal } from '../../helpers/fakes.js';

/** A workspace on `plan` with one app and a log of `total` login entries, newest = highest seq. */
async function world(total: number, plan: Plan = 'team') {
  const stores = createFakeStores();
  const ws = stores.workspaces.add({ plan });
  const app = (await stores.transaction((tx) => stores.apps.insert(tx, ws.id, 'Shop')))!;
  await stores.transaction(async (tx) => {
    for (let i = 0; i < total; i++)
      await stores.audit.append(tx, { workspaceId: ws.id, actor: 'a', action: 'login' });
  });
  const page = vi.spyOn(stores.audit, 'page');
  return {
    stores,
    ws,
    app,
    page,
    audit: createAuditService(stores),
    viewer: principal(ws.id, 'viewer', 'api-key'),
  };
}

describe('AuditService.list', () => {
  it('asks for one row more than the limit and offers the next offset only when it exists', async () => {
    const { audit, page, viewer } = await world(120);
    const first = await audit.list(viewer, { limit: 50, offset: 0 });
    expect(page.mock.calls[0]?.slice(2)).toEqual([51, 0]);
    expect(first.entries.map((e) => e.seq).slice(0, 2)).toEqual([120, 119]);
    expect(first).toMatchObject({ limit: 50, offset: 0, next_offset: 50 });
    expect((await audit.list(viewer, { limit: 50, offset: 50 })).next_offset).toBe(100);
    const last = await audit.list(viewer, { limit: 50, offset: 100 });
    expect(last.entries).toHaveLength(20);
    expect(last.next_offset).toBeNull();
    expect((await audit.list(viewer, { limit: 20, offset: 100 })).next_offset).toBeNull();
    expect(await audit.list(viewer, { limit: 5, offset: 500 })).toEqual({
      entries: [],
      limit: 5,
      offset: 500,
      next_offset: null,
    });
  });

  it('gates on the plan before looking at the app', async () => {
    for (const plan of ['hobby', 'pro'] as const) {
      const { audit, page, viewer } = await world(3, plan);
      await expect(audit.list(viewer, { limit: 1, offset: 0, app_id: 'junk' })).rejects.toMatchObject({
        status: 402,
      });
      expect(page).not.toHaveBeenCalled();
    }
  });

  it('refuses app ids that are not apps of the workspace, without querying the log', async () => {
    const { stores, audit, page, viewer, app } = await world(3);
    const theirs = stores.workspaces.add().id;
    const elsewhere = (await stores.transaction((tx) => stores.apps.insert(tx, theirs, 'Theirs')))!;
    for (const appId of ['junk', '', elsewhere.id, '33333333-3333-4333-8333-333333333333', `${app.id}x`]) {
      const err = await audit.list(viewer, { limit: 1, offset: 0, app_id: appId }).catch((e) => e);
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ status: 403, code: 'app_not_in_workspace' });
    }
    expect(page).not.toHaveBeenCalled();
    await audit.list(viewer, { limit: 1, offset: 0, app_id: app.id, action: 'module.push' });
    expect(page.mock.calls.at(-1)?.[1]).toEqual({ appId: app.id, action: 'module.push' });
  });
});

describe('AuditService.verify', () => {
  it('is for the owner of a team workspace, and reports the first broken entry', async () => {
    const { stores, audit, ws } = await world(4);
    const owner = principal(ws.id, 'owner');
    expect(await audit.verify(owner, ws.id)).toMatchObject({ ok: true, entries: 4, first_broken_seq: null });
    await expect(audit.verify(principal(ws.id, 'admin'), ws.id)).rejects.toMatchObject({ status: 403 });
    await expect(audit.verify(owner, stores.workspaces.add({ plan: 'team' }).id)).rejects.toMatchObject({
      status: 403,
    });

    stores.audit.entries[1]!.actor = 'someone else';
    expect(await audit.verify(owner, ws.id)).toMatchObject({
      ok: false,
      entries: 2,
      first_broken_seq: 2,
      reason: 'hash_mismatch',
    });

    stores.workspaces.rows.get(ws.id)!.plan = 'pro';
    await expect(audit.verify(owner, ws.id)).rejects.toMatchObject({ status: 402 });
  });
});
