import type { AppRow, AppsStore } from '../apps/apps.store.js';
import type { AuditStore } from '../audit/audit.store.js';
import type { Plan } from '../plans/plans.js';
import { conflict, notFound } from '../platform/errors.js';
import type { Queryable } from '../platform/postgres.js';
import type { OutboxStore } from '../webhooks/outbox.store.js';
import type { WorkspacesStore } from '../workspaces/workspaces.store.js';
import {
  pauseAudit,
  rollbackAudit,
  rollbackData,
  rolloutAudit,
  rolloutChangedData,
} from './release-events.js';
import { requireRolloutChangeAllowed } from './releases.rules.js';
import type { ReleaseRow, ReleasesStore } from './releases.store.js';
import type { ChangeActor } from './releases.types.js';

/**
 * Changes to a pushed release (rollout, pause, rollback) inside the caller's transaction, each with its
 * audit entry and webhook event, under the app's row lock. Refusals (unknown release, plan gate, rolled
 * back) are thrown before anything is written, so the caller's transaction stays usable; the caller tells
 * the routing caches after the commit. The releases service and the spike actions run them.
 */

/** The stores a change reads and writes. */
export interface ChangeStores {
  releases: ReleasesStore;
  apps: AppsStore;
  workspaces: WorkspacesStore;
  audit: AuditStore;
  outbox: OutboxStore;
}

/** A change's answer: the release as it is now, and whether anything changed (and was recorded). */
export type Changed = { row: ReleaseRow; changed: boolean };

/** The rollout change; the same value again is not a change: nothing is recorded. */
export async function changeRollout(
  stores: ChangeStores,
  tx: Queryable,
  actor: ChangeActor,
  id: string,
  rolloutPct: number,
  details: Record<string, unknown>,
): Promise<Changed> {
  const { app, release } = await lockRelease(stores, tx, actor.workspaceId, id);
  requireRolloutChangeAllowed(await planOf(stores, actor.workspaceId, tx));
  if (!release.active) {
    throw conflict('This release was rolled back; its rollout can no longer change.', 'release_inactive');
  }
  if (release.rollout_pct === rolloutPct) return { row: release, changed: false };
  const row = await stores.releases.setRollout(tx, release.id, rolloutPct);
  await recordChange(stores, tx, actor, app, 'rollout.change', {
    ...rolloutAudit(row, release.rollout_pct),
    ...details,
  });
  await stores.outbox.append(
    tx,
    actor.workspaceId,
    'rollout.changed',
    rolloutChangedData(app, row, release.rollout_pct),
  );
  return { row, changed: true };
}

/** The pause or resume; the same state again is not a change. */
export async function changePaused(
  stores: ChangeStores,
  tx: Queryable,
  actor: ChangeActor,
  id: string,
  paused: boolean,
  details: Record<string, unknown>,
): Promise<Changed> {
  const { app, release } = await lockRelease(stores, tx, actor.workspaceId, id);
  if (!release.active) {
    throw conflict(
      'This release was rolled back; it can no longer be paused or resumed.',
      'release_inactive',
    );
  }
  if (release.paused === paused) return { row: release, changed: false };
  const row = await stores.releases.setPaused(tx, release.id, paused);
  await recordChange(stores, tx, actor, app, 'rollout.change', { ...pauseAudit(row), ...details });
  await stores.outbox.append(
    tx,
    actor.workspaceId,
    'rollout.changed',
    rolloutChangedData(app, row, row.rollout_pct),
  );
  return { row, changed: true };
}

/** The rollback: the newest earlier active release of the channel is what devices fall through to. */
export async function rollBack(
  stores: ChangeStores,
  tx: Queryable,
  actor: ChangeActor,
  id: string,
  details: Record<string, unknown>,
): Promise<{ rolled_back: ReleaseRow; active: ReleaseRow }> {
  const { app, release } = await lockRelease(stores, tx, actor.workspaceId, id);
  if (!release.active) throw conflict('This release was already rolled back.', 'release_inactive');
  const previous = await stores.releases.previousActive(app.id, release.channel, release.seq, tx);
  if (!previous) {
    throw conflict(
      `No earlier active release on channel "${release.channel}" to fall back to.`,
      'no_previous_release',
    );
  }
  const rolledBack = await stores.releases.deactivate(tx, release.id);
  await recordChange(stores, tx, actor, app, 'module.rollback', {
    ...rollbackAudit(rolledBack, previous),
    ...details,
  });
  await stores.outbox.append(tx, actor.workspaceId, 'rollback', rollbackData(app, rolledBack, previous));
  return { rolled_back: rolledBack, active: previous };
}

/** The workspace's plan as the change's transaction sees it. */
export async function planOf(
  stores: Pick<ChangeStores, 'workspaces'>,
  workspaceId: string,
  tx: Queryable,
): Promise<Plan> {
  // The principal's workspace: it exists for as long as the principal does.
  return (await stores.workspaces.find(workspaceId, tx))!.plan;
}

export async function lockApp(
  stores: Pick<ChangeStores, 'apps'>,
  tx: Queryable,
  workspaceId: string,
  appId: string,
): Promise<AppRow> {
  const app = await stores.apps.lock(tx, workspaceId, appId);
  if (!app) throw notFound('App', 'app_not_found');
  return app;
}

/** Locks the release's app (the order every release change uses), then reads the release afresh. */
async function lockRelease(
  stores: ChangeStores,
  tx: Queryable,
  workspaceId: string,
  id: string,
): Promise<{ app: AppRow; release: ReleaseRow }> {
  const seen = await stores.releases.find(workspaceId, id, tx);
  if (!seen) throw notFound('Release', 'release_not_found');
  const app = await lockApp(stores, tx, workspaceId, seen.app_id);
  const release = (await stores.releases.find(workspaceId, id, tx))!;
  return { app, release };
}

/** The audit entry of a push or a change. */
export async function recordChange(
  stores: Pick<ChangeStores, 'audit'>,
  tx: Queryable,
  actor: ChangeActor,
  app: AppRow,
  action: 'module.push' | 'rollout.change' | 'module.rollback',
  details: Record<string, unknown>,
): Promise<void> {
  await stores.audit.append(tx, {
    workspaceId: actor.workspaceId,
    appId: app.id,
    actor: actor.actor,
    apiKey: actor.apiKey,
    action,
    details,
  });
}
