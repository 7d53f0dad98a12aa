import { DEFAULT_CHANNEL } from '@ota/shared/ids';
import { auditActor, type Principal, requireRole } from '../access/principal.js';
import type { PublishInvalidation } from '../apps/apps.service.js';
import type { AppRow, AppsStore } from '../apps/apps.store.js';
import type { AuditStore } from '../audit/audit.store.js';
import { requireFeature } from '../plans/plans.js';
import { AppError, conflict, notFound } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import type { Transactional } from '../platform/postgres.js';
import type { ReleasesStore } from '../releases/releases.store.js';
import type { WorkspacesStore } from '../workspaces/workspaces.store.js';
import type { OverrideReason } from './device-override.js';
import type { DeviceOverrideRow, DeviceOverridesStore, OverrideTarget } from './device-overrides.store.js';
import type { OverrideCheck, OverrideChecks } from './override-checks.js';

/** API.md, "Release workflows": enough for a QA team's devices and support cases, bounded per app. */
export const MAX_OVERRIDES_PER_APP = 1000;

/** Why a pinned release is not served: the device's last check said so, or the release is gone. */
export type OverrideStatusReason = OverrideReason | 'release_rolled_back';

/** An override as listed: whether its pinned release reaches the device (null: not known yet). */
export interface ListedOverride extends DeviceOverrideRow {
  servable: boolean | null;
  reason: OverrideStatusReason | null;
  last_check_at: Date | null;
}

/** The stores the device-overrides service works on. */
export interface DeviceOverridesStores {
  deviceOverrides: DeviceOverridesStore;
  apps: AppsStore;
  releases: ReleasesStore;
  workspaces: WorkspacesStore;
  audit: AuditStore;
  transaction: Transactional;
}

export interface DeviceOverridesOptions {
  invalidate: PublishInvalidation;
  /** Pinned devices' last checks (Redis), read by the listing and forgotten with the override. */
  checks: Pick<OverrideChecks, 'read' | 'forget'>;
  log: Logger;
}

export function createDeviceOverridesService(
  stores: DeviceOverridesStores,
  options: DeviceOverridesOptions,
): DeviceOverridesService {
  return new DeviceOverridesService(stores, options);
}

/**
 * Device overrides (API.md, "Release workflows"): pin a device to a channel or to a release. Each change,
 * with its audit entry, commits under the app's row lock (so the per-app bound is exact), and the app's
 * routing state is invalidated after the commit: the overrides travel with it to every API process.
 */
export class DeviceOverridesService {
  constructor(
    private readonly stores: DeviceOverridesStores,
    private readonly options: DeviceOverridesOptions,
  ) {}

  async put(
    principal: Principal,
    appId: string,
    deviceId: string,
    target: { channel?: string; module_id?: string },
  ): Promise<DeviceOverrideRow> {
    requireRole(principal, 'developer', 'Pinning devices');
    const { deviceOverrides, releases, audit } = this.stores;
    const row = await this.stores.transaction(async (tx) => {
      const app = await this.lockApp(tx, principal, appId);
      let set: OverrideTarget;
      let channel: string;
      if (target.module_id !== undefined) {
        const release = await releases.find(principal.workspaceId, target.module_id, tx);
        if (!release || release.app_id !== app.id) throw notFound('Release', 'release_not_found');
        if (!release.active) {
          throw conflict(
            'This release was rolled back: a device pinned to it would never get it.',
            'release_inactive',
          );
        }
        set = { releaseId: release.id };
        channel = release.channel;
      } else {
        channel = target.channel!;
        set = { channel };
      }
      if (channel !== DEFAULT_CHANNEL) {
        requireFeature((await this.stores.workspaces.find(principal.workspaceId, tx))!.plan, 'extraChannels');
      }
      if ('channel' in set) await this.requireChannel(app.id, channel);
      const before = await deviceOverrides.find(app.id, deviceId, tx);
      if (!before && (await deviceOverrides.count(tx, app.id)) >= MAX_OVERRIDES_PER_APP) {
        throw conflict(
          `An app has at most ${MAX_OVERRIDES_PER_APP} device overrides; remove some it no longer needs first.`,
          'too_many_overrides',
        );
      }
      const written = await deviceOverrides.put(tx, principal.workspaceId, app.id, deviceId, set);
      await audit.append(tx, {
        workspaceId: principal.workspaceId,
        appId: app.id,
        ...auditActor(principal),
        action: 'device.override',
        details: {
          device_id: deviceId,
          old: targetOf(before),
          new: targetOf(written),
        },
      });
      return written;
    });
    await this.options.invalidate({ appId: row.app_id });
    return row;
  }

  /**
   * A device pinned to a channel nobody released to would get nothing, silently: refused, naming the
   * channels there are (a channel exists once a release was pushed to it).
   */
  private async requireChannel(appId: string, channel: string): Promise<void> {
    const channels = await this.stores.apps.channels(appId);
    if (channels.includes(channel)) return;
    throw new AppError(
      404,
      'channel_not_found',
      `The app has no channel "${channel}"; its channels: ${channels.join(', ')}. A channel exists once a release is pushed to it (--channel on the release).`,
      { channels },
    );
  }

  /** The app's overrides, newest first, each saying whether its pinned release reaches the device. */
  async list(principal: Principal, appId: string): Promise<ListedOverride[]> {
    requireRole(principal, 'viewer', 'Reading device overrides');
    const app = await this.stores.apps.find(principal.workspaceId, appId);
    if (!app) throw notFound('App', 'app_not_found');
    const rows = await this.stores.deviceOverrides.list(app.id);
    const pinned = [...new Set(rows.flatMap((r) => (r.release_id === null ? [] : [r.release_id])))];
    const active = new Map(
      (await this.stores.releases.findMany(principal.workspaceId, pinned)).map((r) => [r.id, r.active]),
    );
    const checks = await this.checksOf(principal.workspaceId, app.id, pinned.length > 0);
    return rows.map((row) => ({ ...row, ...statusOf(row, active, checks.get(row.device_id)) }));
  }

  async remove(principal: Principal, appId: string, deviceId: string): Promise<void> {
    requireRole(principal, 'developer', 'Unpinning devices');
    const { deviceOverrides, audit } = this.stores;
    const app = await this.stores.transaction(async (tx) => {
      const locked = await this.lockApp(tx, principal, appId);
      const before = await deviceOverrides.find(locked.id, deviceId, tx);
      if (!before || !(await deviceOverrides.delete(tx, locked.id, deviceId)))
        throw notFound('Device override', 'override_not_found');
      await audit.append(tx, {
        workspaceId: principal.workspaceId,
        appId: locked.id,
        ...auditActor(principal),
        action: 'device.override_remove',
        details: { device_id: deviceId, old: targetOf(before) },
      });
      return locked;
    });
    await this.options.invalidate({ appId: app.id });
    await this.options.checks.forget(principal.workspaceId, app.id, deviceId).catch((err: unknown) => {
      this.options.log.warn({ err, appId: app.id }, 'override checks of a removed override not forgotten');
    });
  }

  private async lockApp(
    tx: Parameters<AppsStore['lock']>[0],
    principal: Principal,
    appId: string,
  ): Promise<AppRow> {
    const app = await this.stores.apps.lock(tx, principal.workspaceId, appId);
    if (!app) throw notFound('App', 'app_not_found');
    return app;
  }

  /** The last checks of pinned devices; the listing still answers (without them) when Redis does not. */
  private async checksOf(
    workspaceId: string,
    appId: string,
    any: boolean,
  ): Promise<Map<string, OverrideCheck>> {
    if (!any) return new Map();
    try {
      return await this.options.checks.read(workspaceId, appId);
    } catch (err) {
      this.options.log.warn({ err, appId }, 'override checks not read');
      return new Map();
    }
  }
}

/** What an override points at, as audit details show it. */
function targetOf(row: DeviceOverrideRow | undefined) {
  return { channel: row?.channel ?? null, module_id: row?.release_id ?? null };
}

function statusOf(
  row: DeviceOverrideRow,
  active: ReadonlyMap<string, boolean>,
  check: OverrideCheck | undefined,
): Pick<ListedOverride, 'servable' | 'reason' | 'last_check_at'> {
  // A channel override always applies: buckets and rollouts of that channel decide, as for any device.
  if (row.release_id === null) return { servable: null, reason: null, last_check_at: null };
  const lastCheck = check?.module_id === row.release_id ? check : undefined;
  const at = lastCheck ? new Date(lastCheck.at) : null;
  if (active.get(row.release_id) !== true)
    return { servable: false, reason: 'release_rolled_back', last_check_at: at };
  if (!lastCheck) return { servable: null, reason: null, last_check_at: null };
  return { servable: lastCheck.served, reason: lastCheck.reason, last_check_at: at };
}
