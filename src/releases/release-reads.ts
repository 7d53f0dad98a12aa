import { type Principal, requireRole } from '../access/principal.js';
import type { AppsStore } from '../apps/apps.store.js';
import { notFound } from '../platform/errors.js';
import { emptyStats, type ReleaseStatsProvider } from './release-stats.js';
import type { ReleaseRow, ReleasesStore } from './releases.store.js';
import type { ReleasePage, ReleaseWithStats } from './releases.types.js';

/** What the release reads need of the releases service's stores. */
export interface ReleaseReadStores {
  releases: ReleasesStore;
  apps: AppsStore;
  stats: ReleaseStatsProvider;
}

/** A release of the caller's workspace with its statistics; another workspace's is unknown (404). */
export async function readRelease(
  stores: ReleaseReadStores,
  principal: Principal,
  id: string,
): Promise<ReleaseWithStats> {
  requireRole(principal, 'viewer', 'Reading releases');
  const release = await stores.releases.find(principal.workspaceId, id);
  if (!release) throw notFound('Release', 'release_not_found');
  return (await withStats(stores, [release]))[0]!;
}

/** A page of an app's releases, newest first, with their statistics. */
export async function listReleases(
  stores: ReleaseReadStores,
  principal: Principal,
  appId: string,
  query: { channel?: string; limit: number; offset: number },
): Promise<ReleasePage> {
  requireRole(principal, 'viewer', 'Reading releases');
  const app = await stores.apps.find(principal.workspaceId, appId);
  if (!app) throw notFound('App', 'app_not_found');
  const rows = await stores.releases.list(app.id, query.channel, query.limit, query.offset);
  const page = rows.slice(0, query.limit);
  const statsAsOf = new Date();
  return {
    modules: await withStats(stores, page),
    stats_as_of: statsAsOf,
    limit: query.limit,
    offset: query.offset,
    next_offset: rows.length > query.limit ? query.offset + query.limit : null,
  };
}

/** One stats call per page, never one per release. */
async function withStats(stores: ReleaseReadStores, rows: ReleaseRow[]): Promise<ReleaseWithStats[]> {
  if (rows.length === 0) return [];
  const stats = await stores.stats.statsFor(
    rows.map((r) => ({
      id: r.id,
      app_id: r.app_id,
      channel: r.channel,
      rollout_pct: r.rollout_pct,
      target_binary_range: r.target_binary_range,
    })),
  );
  return rows.map((r) => ({ ...r, stats: stats.get(r.id) ?? emptyStats(r.rollout_pct) }));
}
