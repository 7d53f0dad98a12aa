import { chDateTime, chInt, chString } from '../platform/clickhouse.js';

export const INTERVALS = ['minute', 'hour', 'day'] as const;
export type Interval = (typeof INTERVALS)[number];

export const INTERVAL_SECONDS: Record<Interval, number> = { minute: 60, hour: 3600, day: 86_400 };

/** Most buckets one request may ask for (for example 3 days by minute, or 13 months by day). */
export const MAX_BUCKETS = 5000;

export interface SeriesPoint {
  ts: string;
  module_id: string | null;
  checks: number;
  downloads: number;
  activations: number;
  errors: number;
  devices: number;
}

/** The start of the interval holding `date` (UTC), so the first bucket is a whole one. */
export function floorTo(date: Date, interval: Interval): Date {
  const step = INTERVAL_SECONDS[interval] * 1000;
  return new Date(Math.floor(date.getTime() / step) * step);
}

/** Number of buckets between from (floored) and to (exclusive). */
export function bucketCount(from: Date, to: Date, interval: Interval): number {
  const step = INTERVAL_SECONDS[interval] * 1000;
  return Math.ceil((to.getTime() - floorTo(from, interval).getTime()) / step);
}

/**
 * The SQL of the time series: minute and hour buckets from the per-minute rollup, day buckets from the
 * per-day rollup; never the raw events. Buckets are UTC and computed with integer arithmetic (no
 * time-zone dependent functions, which differ between servers).
 */
export function seriesQuery(appId: string, from: Date, to: Date, interval: Interval): string {
  const table = interval === 'day' ? 'device_events_day' : 'device_events_minute';
  const column = interval === 'day' ? 'day' : 'minute';
  const step = chInt(INTERVAL_SECONDS[interval]);
  return `
    SELECT intDiv(toUInt32(${column}), ${step}) * ${step} AS bucket, module_id,
      uniqExactMergeIf(events, type = 'check') AS checks,
      uniqExactMergeIf(events, type = 'download') AS downloads,
      uniqExactMergeIf(events, type = 'activation') AS activations,
      uniqExactMergeIf(events, type = 'error') AS errors,
      uniqCombinedMerge(devices) AS devices
    FROM ${table}
    WHERE app_id = ${chString(appId)}
      AND ${column} >= ${chDateTime(floorTo(from, interval))} AND ${column} < ${chDateTime(to)}
    GROUP BY bucket, module_id
    ORDER BY bucket, module_id`;
}
