import type { Principal } from '../access/principal.js';
import { badRequest, notFound } from '../platform/errors.js';
import { bucketCount, type Interval, MAX_BUCKETS, type SeriesPoint } from './stats.series.js';
import type { StatsStore } from './stats.store.js';

export interface SeriesQuery {
  from?: string;
  to?: string;
  interval?: Interval;
}

/** The stores the analytics service reads. */
export interface AnalyticsStores {
  stats: StatsStore;
}

export interface AnalyticsServiceOptions {
  /** The app cache (routing's): app → its canonical id and workspace, or null for no such app. */
  apps: { get(appId: string): Promise<{ appId: string; workspaceId: string } | null> };
  now?: () => number;
}

export function createAnalyticsService(
  stores: AnalyticsStores,
  options: AnalyticsServiceOptions,
): AnalyticsService {
  return new AnalyticsService(stores, options);
}

const DAY_MS = 86_400_000;
/** ClickHouse DateTime is unsigned 32-bit seconds: 1970-01-01 to 2106-02-07 UTC. */
const LATEST_MS = 4_294_967_295_000;

/** GET /apps/{app_id}/stats: an app's event time series, any role of the app's workspace. */
export class AnalyticsService {
  private readonly now: () => number;

  constructor(
    private readonly stores: AnalyticsStores,
    private readonly options: AnalyticsServiceOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  async series(principal: Principal, appId: string, query: SeriesQuery): Promise<{ series: SeriesPoint[] }> {
    // Another workspace's app is answered as unknown, like a missing one.
    const app = await this.options.apps.get(appId);
    if (app?.workspaceId !== principal.workspaceId) throw notFound('App', 'app_not_found');
    const interval = query.interval ?? 'hour';
    const to = query.to ? new Date(query.to) : new Date(this.now());
    const from = query.from ? new Date(query.from) : new Date(to.getTime() - DAY_MS);
    if (!(from.getTime() < to.getTime())) {
      throw badRequest('"from" must be before "to".', 'invalid_range');
    }
    if (from.getTime() < 0 || to.getTime() > LATEST_MS) {
      throw badRequest('"from" and "to" must lie between 1970-01-01 and 2106-02-07 (UTC).', 'invalid_range');
    }
    if (bucketCount(from, to, interval) > MAX_BUCKETS) {
      throw badRequest(
        `That range holds more than ${MAX_BUCKETS} ${interval} buckets; use a wider interval or a shorter range.`,
        'range_too_large',
      );
    }
    return { series: await this.stores.stats.series(app.appId, from, to, interval) };
  }
}
