import { DEFAULT_CHANNEL } from '@ota/shared/ids';
import { auditActor, type Principal, requireRole } from '../access/principal.js';
import type { PublishInvalidation } from '../apps/apps.service.js';
import type { AppsStore } from '../apps/apps.store.js';
import type { AuditStore } from '../audit/audit.store.js';
import { BlobStoreUnavailableError } from '../bundles/blob-store.js';
import type { BundlesStore } from '../bundles/bundles.store.js';
import type { DeltaJobs } from '../deltas/delta-jobs.js';
import type { PushPackages } from '../deltas/package-facts.js';
import type { Queryable, Transactional } from '../platform/postgres.js';
import type { OutboxStore } from '../webhooks/outbox.store.js';
import type { WorkspacesStore } from '../workspaces/workspaces.store.js';
import { parseTargetBinaryRange } from './binary-range.js';
import { capacitorFields } from './capacitor.rules.js';
import { changePaused, changeRollout, lockApp, planOf, recordChange, rollBack } from './release-changes.js';
import { pushAudit, releasePushedData } from './release-events.js';
import { listReleases, readRelease } from './release-reads.js';
import type { ReleaseStatsProvider } from './release-stats.js';
import {
  FULL_ROLLOUT,
  requirePushAllowed,
  unknownBundle,
  unknownFingerprint,
  versionTaken,
} from './releases.rules.js';
import type { ReleaseRow, ReleasesStore } from './releases.store.js';
import type { ChangeActor, PushHooks, PushInput, ReleasePage, ReleaseWithStats } from './releases.types.js';

const actorOf = (principal: Principal): ChangeActor => ({
  workspaceId: principal.workspaceId,
  ...auditActor(principal),
});

/** Reads a stored bundle's CRC32 (8 lower-case hex). */
export type Crc32Of = (sha256: string) => Promise<string>;

/** The stores the releases service works on. */
export interface ReleasesStores {
  releases: ReleasesStore;
  apps: AppsStore;
  bundles: BundlesStore;
  /** The plan every gate asks about. */
  workspaces: WorkspacesStore;
  audit: AuditStore;
  outbox: OutboxStore;
  /** Statistics shown on every release read (ClickHouse). */
  stats: ReleaseStatsProvider;
  transaction: Transactional;
}

export function createReleasesService(
  stores: ReleasesStores,
  options: {
    invalidate: PublishInvalidation;
    deltas?: DeltaJobs;
    packages?: PushPackages;
    crc32?: Crc32Of;
  },
): ReleasesService {
  return new ReleasesService(stores, options.invalidate, options.deltas, options.packages, options.crc32);
}

/**
 * Pushes, rollout changes and rollbacks. Each change, its audit entry and its webhook outbox row commit in
 * one transaction under the app's row lock; routing caches are told after the commit. Refusals (role,
 * unknown ids, plan gates, conflicts) throw before anything is written.
 */
export class ReleasesService {
  constructor(
    private readonly stores: ReleasesStores,
    private readonly invalidate: PublishInvalidation,
    /** Asked after the commit for the release's deltas (docs/reference/delta-updates.md); never throws. */
    private readonly deltas?: DeltaJobs,
    /** Reads what the bytes are (a zip's CodePush folder hash) before the release can be offered. */
    private readonly packages?: PushPackages,
    /**
     * The CRC32 of a stored bundle, read at push under the blob's lock (older Capacitor plugins compare it;
     * src/capacitor/plugin-versions.ts): kept with the release, so no answer waits for a background job.
     */
    private readonly crc32?: Crc32Of,
  ) {}

  async push(principal: Principal, input: PushInput, hooks: PushHooks = {}): Promise<ReleaseRow> {
    // Part of the request's shape: refused (400) before role and resources are looked at.
    const targetBinaryRange =
      input.target_binary_range == null ? null : parseTargetBinaryRange(input.target_binary_range);
    requireRole(principal, 'developer', 'Pushing releases');
    const channel = input.channel ?? DEFAULT_CHANNEL;
    const rolloutPct = input.rollout_pct ?? FULL_ROLLOUT;
    const sha256 = input.sha256.toLowerCase();
    const capacitor = input.capacitor ? capacitorFields(input.capacitor, sha256, input.version) : null;
    const fingerprint = input.fingerprint ?? null;
    const { releases, apps, bundles, outbox } = this.stores;
    // Read before any lock is taken. Bytes never uploaded are refused below as an unknown bundle; known
    // bytes that cannot be read fail the push (a release is never offered without its package_hash).
    const facts = await this.packages?.factsOf(sha256).then(
      (read) => ({ read }),
      (err: unknown) => ({ err }),
    );
    const release = await this.stores.transaction(async (tx) => {
      const app = await lockApp(this.stores, tx, principal.workspaceId, input.app_id);
      // The blob's lock: the retention sweep cannot delete the bytes while this push refers to them.
      await bundles.lockBlob(tx, sha256);
      const bundle = await bundles.find(app.id, sha256, tx);
      if (!bundle) throw unknownBundle();
      if (facts && 'err' in facts) throw new BlobStoreUnavailableError(facts.err);
      const crc32 = (await this.crc32?.(sha256)) ?? null;
      if (fingerprint !== null && !(await apps.findFingerprint(app.id, fingerprint, tx)))
        throw unknownFingerprint();
      requirePushAllowed(await planOf(this.stores, principal.workspaceId, tx), {
        channel,
        rollout_pct: rolloutPct,
      });
      // Under the app's lock, so two pushes of one version cannot both pass.
      const taken = await releases.findVersion(app.id, channel, input.version, tx);
      if (taken) throw versionTaken(input.version, channel, taken.id);
      await hooks.beforeInsert?.(tx);
      const row = await releases.insert(tx, {
        workspaceId: principal.workspaceId,
        appId: app.id,
        version: input.version,
        channel,
        rolloutPct,
        mandatory: input.mandatory ?? false,
        notes: input.notes ?? '',
        sha256,
        size: bundle.size,
        fingerprint,
        targetBinaryRange,
        capacitor,
        crc32,
        promotedFrom: input.promoted_from
          ? { id: input.promoted_from.module_id, channel: input.promoted_from.channel }
          : null,
        ...(input.id ? { id: input.id } : {}),
        ...(input.created_at ? { createdAt: input.created_at } : {}),
      });
      // With the row: no answer offers the release before its package_hash is known.
      if (facts && 'read' in facts) await this.packages!.record(tx, { release_id: row.id, ...facts.read });
      await hooks.afterInsert?.(tx, row);
      await recordChange(this.stores, tx, actorOf(principal), app, 'module.push', pushAudit(row));
      await outbox.append(tx, principal.workspaceId, 'release.pushed', releasePushedData(app, row));
      return row;
    });
    await this.invalidate({ appId: release.app_id });
    await this.deltas?.request(release.id, release.workspace_id);
    return release;
  }

  async get(principal: Principal, id: string): Promise<ReleaseWithStats> {
    return readRelease(this.stores, principal, id);
  }

  async list(
    principal: Principal,
    appId: string,
    query: { channel?: string; limit: number; offset: number },
  ): Promise<ReleasePage> {
    return listReleases(this.stores, principal, appId, query);
  }

  /** Changes rollout_pct in place. The same value again is not a change: nothing is recorded. */
  async changeRollout(principal: Principal, id: string, rolloutPct: number): Promise<ReleaseRow> {
    requireRole(principal, 'developer', 'Changing rollouts');
    const result = await this.stores.transaction((tx) =>
      this.changeRolloutIn(tx, actorOf(principal), id, rolloutPct),
    );
    if (result.changed) await this.announce(result.row.app_id);
    return result.row;
  }

  /**
   * The rollout change inside the caller's transaction, with its audit entry (plus `details`) and webhook
   * event. Refusals (unknown release, plan gate, rolled back) are thrown before anything is written, so the
   * caller's transaction stays usable. After the commit the caller calls announce() when `changed`.
   */
  async changeRolloutIn(
    tx: Queryable,
    actor: ChangeActor,
    id: string,
    rolloutPct: number,
    details: Record<string, unknown> = {},
  ): Promise<{ row: ReleaseRow; changed: boolean }> {
    return changeRollout(this.stores, tx, actor, id, rolloutPct, details);
  }

  /**
   * Pauses (`paused` true) or resumes a release: while paused it is offered to no device that does not
   * already run it. Its rollout is kept, so a resume restores it as it was. The same state again is not a
   * change: nothing is recorded. Open to every plan, like rollback: stopping a bad release is never paid.
   */
  async setPaused(principal: Principal, id: string, paused: boolean): Promise<ReleaseRow> {
    requireRole(principal, 'developer', paused ? 'Pausing releases' : 'Resuming releases');
    const result = await this.stores.transaction((tx) =>
      this.setPausedIn(tx, actorOf(principal), id, paused),
    );
    if (result.changed) await this.announce(result.row.app_id);
    return result.row;
  }

  /** The pause or resume inside the caller's transaction, like changeRolloutIn; announce() after the commit. */
  async setPausedIn(
    tx: Queryable,
    actor: ChangeActor,
    id: string,
    paused: boolean,
    details: Record<string, unknown> = {},
  ): Promise<{ row: ReleaseRow; changed: boolean }> {
    return changePaused(this.stores, tx, actor, id, paused, details);
  }

  /**
   * Deactivates an active release. The newest earlier active release of the same app and channel is then
   * what devices fall through to, at its own rollout; a release pushed later stays in force above it.
   */
  async rollback(principal: Principal, id: string): Promise<{ rolled_back: ReleaseRow; active: ReleaseRow }> {
    requireRole(principal, 'developer', 'Rolling back releases');
    const result = await this.stores.transaction((tx) => this.rollbackIn(tx, actorOf(principal), id));
    await this.announce(result.rolled_back.app_id);
    return result;
  }

  /** The rollback inside the caller's transaction, like changeRolloutIn; announce() after the commit. */
  async rollbackIn(
    tx: Queryable,
    actor: ChangeActor,
    id: string,
    details: Record<string, unknown> = {},
  ): Promise<{ rolled_back: ReleaseRow; active: ReleaseRow }> {
    return rollBack(this.stores, tx, actor, id, details);
  }

  /** Tells API processes to drop the app's cached routing state; call after the change committed. */
  async announce(appId: string): Promise<void> {
    await this.invalidate({ appId });
  }
}
