import { DEFAULT_CHANNEL } from '@ota/shared/ids';
import { auditActor, type Principal, requireRole } from '../access/principal.js';
import type { PublishInvalidation } from '../apps/apps.service.js';
import type { AppsStore } from '../apps/apps.store.js';
import type { AuditStore } from '../audit/audit.store.js';
import { requireFeature } from '../plans/plans.js';
import { badRequest, notFound } from '../platform/errors.js';
import type { Transactional } from '../platform/postgres.js';
import type { WorkspacesStore } from '../workspaces/workspaces.store.js';
import type { ChannelsStore } from './channels.store.js';

/** A channel as the API shows it. */
export interface Channel {
  name: string;
  allow_device_self_assign: boolean;
}

/** The stores the channels service works on. */
export interface ChannelsStores {
  channels: ChannelsStore;
  apps: AppsStore;
  workspaces: WorkspacesStore;
  audit: AuditStore;
  transaction: Transactional;
}

export function createChannelsService(
  stores: ChannelsStores,
  options: { invalidate: PublishInvalidation },
): ChannelsService {
  return new ChannelsService(stores, options.invalidate);
}

/**
 * An app's channels as a resource (API.md, "Release workflows"): production and every channel with a
 * release, each with `allow_device_self_assign`. A change is audited `channel.change` (old and new values)
 * and travels with the app's routing state, which is invalidated after the commit.
 */
export class ChannelsService {
  constructor(
    private readonly stores: ChannelsStores,
    private readonly invalidate: PublishInvalidation,
  ) {}

  async list(principal: Principal, appId: string): Promise<Channel[]> {
    requireRole(principal, 'viewer', 'Reading channels');
    const app = await this.stores.apps.find(principal.workspaceId, appId);
    if (!app) throw notFound('App', 'app_not_found');
    const [names, settings] = await Promise.all([
      this.stores.apps.channels(app.id),
      this.stores.channels.list(app.id),
    ]);
    const allowed = new Map(settings.map((s) => [s.name, s.allow_device_self_assign]));
    return names.map((name) => ({ name, allow_device_self_assign: this.allows(name, allowed) }));
  }

  /** Sets `allow_device_self_assign`; the same value again is not a change: nothing is recorded. */
  async update(principal: Principal, appId: string, name: string, allow: boolean): Promise<Channel> {
    requireRole(principal, 'developer', 'Changing channels');
    if (name === DEFAULT_CHANNEL && !allow) {
      throw badRequest(
        'production always allows devices to move onto it: it is where a device without a channel goes.',
        'production_always_self_assignable',
      );
    }
    const changed = await this.stores.transaction(async (tx) => {
      const app = await this.stores.apps.lock(tx, principal.workspaceId, appId);
      if (!app) throw notFound('App', 'app_not_found');
      if (name === DEFAULT_CHANNEL) return undefined;
      requireFeature((await this.stores.workspaces.find(principal.workspaceId, tx))!.plan, 'extraChannels');
      // A channel exists once it has a release: reading the names after the lock sees every push before it.
      if (!(await this.stores.apps.channels(app.id)).includes(name))
        throw notFound('Channel', 'channel_not_found');
      const before =
        (await this.stores.channels.list(app.id, tx)).find((s) => s.name === name)
          ?.allow_device_self_assign ?? false;
      if (before === allow) return undefined;
      await this.stores.channels.set(tx, app.id, name, allow);
      await this.stores.audit.append(tx, {
        workspaceId: principal.workspaceId,
        appId: app.id,
        ...auditActor(principal),
        action: 'channel.change',
        details: {
          channel: name,
          old: { allow_device_self_assign: before },
          new: { allow_device_self_assign: allow },
        },
      });
      return app.id;
    });
    if (changed) await this.invalidate({ appId: changed });
    return { name, allow_device_self_assign: allow };
  }

  /**
   * Removes a channel (a pull request's preview closing): its releases are withdrawn, devices pinned to it
   * lose that, its deployment keys go; a device still asking for it is served the default channel, through
   * the app's routing state (its deleted channels) invalidated below. No plan gate: a workspace that dropped to a plan
   * without channels can still clean up. Audited `channel.delete` with what went.
   */
  async remove(principal: Principal, appId: string, name: string): Promise<void> {
    requireRole(principal, 'developer', 'Deleting channels');
    if (name === DEFAULT_CHANNEL)
      throw badRequest(
        'production cannot be deleted: it is where a device without a channel goes.',
        'production_not_deletable',
      );
    const removed = await this.stores.transaction(async (tx) => {
      const app = await this.stores.apps.lock(tx, principal.workspaceId, appId);
      if (!app) throw notFound('App', 'app_not_found');
      if (!(await this.stores.apps.channels(app.id)).includes(name))
        throw notFound('Channel', 'channel_not_found');
      const gone = await this.stores.channels.remove(tx, app.id, name);
      await this.stores.audit.append(tx, {
        workspaceId: principal.workspaceId,
        appId: app.id,
        ...auditActor(principal),
        action: 'channel.delete',
        details: { channel: name, ...gone },
      });
      return app.id;
    });
    await this.invalidate({ appId: removed });
  }

  private allows(name: string, allowed: ReadonlyMap<string, boolean>): boolean {
    return name === DEFAULT_CHANNEL || (allowed.get(name) ?? false);
  }
}
