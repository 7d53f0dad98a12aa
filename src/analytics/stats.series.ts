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
 * The SQL of the time series. Checks and devices come from the rollups: the per-minute one for minute and
 * hour buckets, the per-day one for day buckets. Downloads, activations and errors come from the raw events
 * of the range, each event id once, in the bucket of the earliest time it was reported: a device may send
 * an event again with another `ts`, and a rollup, which sees one insert at a time, would count it in the
 * bucket of each copy (the release totals, merged over every day, count it once). Checks are recorded by
 * the API with ids it makes, so they never repeat. Buckets are UTC and computed with integer arithmetic (no
 * time-zone dependent functions, which differ between servers). Runs on ClickHouse 18.16: UNION ALL of
 * columns of one type each, no window functions.
 */
export function seriesQuery(appId: string, from: Date, to: Date, interval: Interval): string {
  const table = interval === 'day' ? 'device_events_day' : 'device_events_minute';
  const column = interval === 'day' ? 'day' : 'minute';
  const step = chInt(INTERVAL_SECONDS[interval]);
  const start = floorTo(from, interval);
  // The rollup's rows are kept when their own start (a minute, or a day) is before `to`; the raw events
  // are kept by the same rule, which is "before `to` rounded up to the rollup's granularity".
  const grain = interval === 'day' ? 86_400_000 : 60_000;
  const end = new Date(Math.ceil(to.getTime() / grain) * grain);
  const app = chString(appId);
  return `
    SELECT bucket, module_id,
      sum(checks) AS checks, sum(downloads) AS downloads, sum(activations) AS activations,
      sum(errors) AS errors, sum(devices) AS devices
    FROM (
      SELECT intDiv(toUInt32(${column}), ${step}) * ${step} AS bucket, module_id,
        uniqExactMergeIf(events, type = 'check') AS checks,
        toUInt64(0) AS downloads, toUInt64(0) AS activations, toUInt64(0) AS errors,
        uniqCombinedMerge(devices) AS devices
      FROM ${table}
      WHERE app_id = ${app}
        AND ${column} >= ${chDateTime(start)} AND ${column} < ${chDateTime(to)}
      GROUP BY bucket, module_id
      UNION ALL
      SELECT intDiv(first, ${step}) * ${step} AS bucket, module_id,
        toUInt64(0) AS checks,
        countIf(type = 'download') AS downloads,
        countIf(type = 'activation') AS activations,
        countIf(type = 'error') AS errors,
        toUInt64(0) AS devices
      FROM (
        SELECT module_id, type, min(toUInt32(ts)) AS first
        FROM device_events
        WHERE app_id = ${app} AND type IN ('download', 'activation', 'error')
          AND ts >= ${chDateTime(start)} AND ts < ${chDateTime(end)}
        GROUP BY module_id, type, event_id
      )
      GROUP BY bucket, module_id
    )
    GROUP BY bucket, module_id
    ORDER BY bucket, module_id`;
}
