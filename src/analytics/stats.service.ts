import type { Principal } from '../auth/principal.js';
import type { ClickHouseClient } from '../platform/clickhouse.js';
import { badRequest, notFound } from '../platform/errors.js';
import type { RoutingCache } from '../routing/routing.cache.js';
import { bucketCount, type Interval, MAX_BUCKETS, readSeries, type SeriesPoint } from './stats.series.js';

export interface SeriesQuery {
  from?: string;
  to?: string;
  interval?: Interval;
}

const DAY_MS = 86_400_000;
/** ClickHouse DateTime is unsigned 32-bit seconds: 1970-01-01 to 2106-02-07 UTC. */
const LATEST_MS = 4_294_967_295_000;

/** GET /apps/{app_id}/stats: an app's event time series, any role of the app's workspace. */
export class AnalyticsService {
  constructor(
    private readonly ch: ClickHouseClient,
    /** The app cache: app -> workspace without a query on a hit. */
    private readonly apps: Pick<RoutingCache, 'get'>,
    private readonly now: () => number = Date.now,
  ) {}

  async series(principal: Principal, appId: string, query: SeriesQuery): Promise<{ series: SeriesPoint[] }> {
    // Another workspace's app is answered as unknown, like a missing one.
    const app = await this.apps.get(appId);
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
    return { series: await readSeries(this.ch, app.appId, from, to, interval) };
  }
}
