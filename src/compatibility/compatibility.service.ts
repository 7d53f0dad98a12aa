import { type Principal, requireRole } from '../access/principal.js';
import type { StatsStore } from '../analytics/stats.store.js';
import type { AppsStore } from '../apps/apps.store.js';
import { notFound } from '../platform/errors.js';
import type { ReleasesStore } from '../releases/releases.store.js';
import { type Compatibility, compatibilityOf, type Requirements } from './compatibility.js';

export interface CompatibilityStores {
  apps: Pick<AppsStore, 'find'>;
  releases: Pick<ReleasesStore, 'findMany'>;
  stats: Pick<StatsStore, 'latestChecks'>;
}

const DAY_MS = 86_400_000;

/**
 * POST /modules/compatibility: whether any device seen in the last DEVICE_WINDOW_DAYS could run a release
 * with these requirements, asked before a push (`ota release --fail-if-incompatible`). Read from
 * ClickHouse (each device's latest check) and the releases those devices run; nothing is written.
 */
export class CompatibilityService {
  constructor(
    private readonly stores: CompatibilityStores,
    private readonly options: { windowDays: number; now?: () => number },
  ) {}

  async check(
    principal: Principal,
    input: Requirements & { app_id: string },
  ): Promise<Compatibility & { compatible: boolean; window_days: number; channel: string }> {
    requireRole(principal, 'viewer', 'Checking compatibility');
    const app = await this.stores.apps.find(principal.workspaceId, input.app_id);
    if (!app) throw notFound('App', 'app_not_found');
    const now = this.options.now?.() ?? Date.now();
    const since = new Date(now - this.options.windowDays * DAY_MS);
    const groups = await this.stores.stats.latestChecks(app.id, since);
    const running = [...new Set(groups.map((g) => g.module_id).filter((m) => m !== ''))];
    const releases =
      running.length > 0 ? await this.stores.releases.findMany(principal.workspaceId, running) : [];
    const fingerprints = new Map(releases.map((r) => [r.id, r.fingerprint]));
    const counted = compatibilityOf(groups, fingerprints, input);
    return {
      ...counted,
      compatible: counted.compatible_devices > 0,
      window_days: this.options.windowDays,
      channel: input.channel,
    };
  }
}
