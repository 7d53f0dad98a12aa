import type { ReleaseStatsProvider } from '../releases/release-stats.js';
import type { LatestCheckGroup } from './device-checks.js';
import type { Interval, SeriesPoint } from './stats.series.js';

/** Device-event statistics: an app's time series and the derived statistics of releases. */
export interface StatsStore extends ReleaseStatsProvider {
  /** Buckets of `interval` from `from` (floored to the interval) to `to` (exclusive), by module. */
  series(appId: string, from: Date, to: Date, interval: Interval): Promise<SeriesPoint[]>;
  /** The app's devices by what their latest update check since `since` said (device-checks.ts). */
  latestChecks(appId: string, since: Date): Promise<LatestCheckGroup[]>;
}
