import { DEFAULT_CHANNEL } from '@ota/shared/ids';
import { type Principal, requireRole } from '../access/principal.js';
import type { AppsStore } from '../apps/apps.store.js';
import { notFound, payloadTooLarge } from '../platform/errors.js';
import type { WorkspacesStore } from '../workspaces/workspaces.store.js';
import { FULL_ROLLOUT, requirePushAllowed, versionTaken } from './releases.rules.js';
import type { ReleaseRow, ReleasesStore } from './releases.store.js';

/** Shortest id prefix taken: shorter ones would match too many releases to be worth typing. */
export const MIN_ID_PREFIX = 6;
/** Most matches one lookup answers; enough to show a person why a prefix is ambiguous. */
export const LOOKUP_LIMIT = 20;

export interface PreflightInput {
  app_id: string;
  version?: string;
  channel?: string;
  rollout_pct?: number;
  size?: number;
}

export interface LookupQuery {
  ref: string;
  app_id?: string;
  channel?: string;
}

/** The stores the release-refs service reads. */
export interface ReleaseRefsStores {
  releases: ReleasesStore;
  apps: AppsStore;
  workspaces: WorkspacesStore;
}

export function createReleaseRefsService(
  stores: ReleaseRefsStores,
  options: { bundleMaxBytes: number },
): ReleaseRefsService {
  return new ReleaseRefsService(stores, options);
}

/**
 * What people type instead of release ids, and the question a push asks before its bytes travel. Reads
 * only: the push itself (ReleasesService) decides again under the app's lock.
 */
export class ReleaseRefsService {
  constructor(
    private readonly stores: ReleaseRefsStores,
    private readonly options: { bundleMaxBytes: number },
  ) {}

  /**
   * The refusals a push would meet that are known before the upload: role, unknown app, plan gates, a
   * version already on the channel, a bundle past BUNDLE_MAX_BYTES. A 4 MB upload then never ends in a 402.
   */
  async preflight(principal: Principal, input: PreflightInput) {
    requireRole(principal, 'developer', 'Pushing releases');
    const app = await this.stores.apps.find(principal.workspaceId, input.app_id);
    if (!app) throw notFound('App', 'app_not_found');
    const channel = input.channel ?? DEFAULT_CHANNEL;
    const rolloutPct = input.rollout_pct ?? FULL_ROLLOUT;
    if (input.size !== undefined && input.size > this.options.bundleMaxBytes) {
      throw payloadTooLarge(
        `A bundle may be at most ${this.options.bundleMaxBytes} bytes (setting BUNDLE_MAX_BYTES); this one has ${input.size}.`,
      );
    }
    const workspace = (await this.stores.workspaces.find(principal.workspaceId))!;
    requirePushAllowed(workspace.plan, {
      channel,
      rollout_pct: rolloutPct,
    });
    if (input.version !== undefined) {
      const taken = await this.stores.releases.findVersion(app.id, channel, input.version);
      if (taken) throw versionTaken(input.version, channel, taken.id);
    }
    return { allowed: true as const, app_id: app.id, channel, rollout_pct: rolloutPct };
  }

  /** Releases of the caller's workspace named by `ref`: an exact version, or an id prefix (6+ characters). */
  async lookup(principal: Principal, query: LookupQuery): Promise<ReleaseRow[]> {
    requireRole(principal, 'viewer', 'Reading releases');
    if (query.app_id && !(await this.stores.apps.find(principal.workspaceId, query.app_id))) {
      throw notFound('App', 'app_not_found');
    }
    const prefix = query.ref.toLowerCase();
    const idPrefix = prefix.length >= MIN_ID_PREFIX && /^[0-9a-f-]+$/.test(prefix) ? prefix : null;
    return this.stores.releases.lookup(
      principal.workspaceId,
      { version: query.ref, idPrefix },
      { appId: query.app_id, channel: query.channel },
      LOOKUP_LIMIT,
    );
  }
}
