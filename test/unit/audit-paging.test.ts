import { describe, expect, it } from 'vitest';
import { AuditService } from '../../src/audit/audit.service.js';
import type { AuditEntryRow, AuditFilter, AuditStore } from '../../src/audit/audit.store.js';
import type { Principal } from '../../src/auth/principal.js';
import type { Plan } from '../../src/plans/plans.js';
import { AppError } from '../../src/platform/errors.js';
import type { Db } from '../../src/platform/postgres.js';
import type { WorkspacesService } from '../../src/workspaces/workspaces.service.js';

const WS = '11111111-1111-4111-8111-111111111111';
const APP = '22222222-2222-4222-8222-222222222222';

/** An in-memory log of `total` entries, newest = highest seq. */
function fakeStore(total: number, apps: string[] = [APP]) {
  const calls: Array<{ filter: AuditFilter; limit: number; offset: number }> = [];
  const rows: AuditEntryRow[] = Array.from({ length: total }, (_, i) => ({
    id: `e${i}`,
    seq: i + 1,
    actor: 'a',
    action: 'login',
    workspace_id: WS,
    app_id: null,
    details: {},
    created_at: new Date(0),
  })).reverse();
  const store = {
    calls,
    async page(_ws: string, filter: AuditFilter, limit: number, offset: number) {
      calls.push({ filter, limit, offset });
      return rows.slice(offset, offset + limit);
    },
    async appInWorkspace(_ws: string, appId: string) {
      return apps.includes(appId);
    },
  };
  return store;
}

function service(total: number, plan: Plan = 'team') {
  const store = fakeStore(total);
  const workspaces = { planOf: async () => plan } as unknown as WorkspacesService;
  return { store, audit: new AuditService({} as Db, store as unknown as AuditStore, workspaces) };
}

const principal: Principal = {
  kind: 'api-key',
  workspaceId: WS,
  role: 'viewer',
  userId: null,
  email: null,
  apiKeyId: 'k',
  actor: 'api-key',
};

describe('AuditService.list', () => {
  it('asks for one row more than the limit and offers the next offset only when it exists', async () => {
    const { audit, store } = service(120);
    const first = await audit.list(principal, { limit: 50, offset: 0 });
    expect(store.calls[0]).toMatchObject({ limit: 51, offset: 0 });
    expect(first.entries.map((e) => e.seq).slice(0, 2)).toEqual([120, 119]);
    expect(first).toMatchObject({ limit: 50, offset: 0, next_offset: 50 });
    expect((await audit.list(principal, { limit: 50, offset: 50 })).next_offset).toBe(100);
    const last = await audit.list(principal, { limit: 50, offset: 100 });
    expect(last.entries).toHaveLength(20);
    expect(last.next_offset).toBeNull();
    expect((await audit.list(principal, { limit: 20, offset: 100 })).next_offset).toBeNull();
    expect(await audit.list(principal, { limit: 5, offset: 500 })).toEqual({
      entries: [],
      limit: 5,
      offset: 500,
      next_offset: null,
    });
  });

  it('gates on the plan before looking at the app', async () => {
    for (const plan of ['hobby', 'pro'] as const) {
      const { audit, store } = service(3, plan);
      await expect(audit.list(principal, { limit: 1, offset: 0, app_id: 'junk' })).rejects.toMatchObject({
        status: 402,
      });
      expect(store.calls).toEqual([]);
    }
  });

  it('refuses app ids that are not apps of the workspace, without querying the log', async () => {
    const { audit, store } = service(3);
    for (const appId of ['junk', '', '33333333-3333-4333-8333-333333333333', `${APP}x`]) {
      const err = await audit.list(principal, { limit: 1, offset: 0, app_id: appId }).catch((e) => e);
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ status: 403, code: 'app_not_in_workspace' });
    }
    expect(store.calls).toEqual([]);
    await audit.list(principal, { limit: 1, offset: 0, app_id: APP, action: 'module.push' });
    expect(store.calls.at(-1)?.filter).toEqual({ appId: APP, action: 'module.push' });
  });
});
