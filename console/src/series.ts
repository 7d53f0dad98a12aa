import type { StatsPoint } from '../../client/index.js';

export type Interval = 'minute' | 'hour' | 'day';

export const INTERVAL_MS: Record<Interval, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/** Each chart range asks the stats endpoint for one bucket size, so a range has a readable point count. */
export const RANGES: Array<{ id: string; label: string; interval: Interval; ms: number }> = [
  { id: '1h', label: 'Last hour', interval: 'minute', ms: 3_600_000 },
  { id: '24h', label: 'Last 24 hours', interval: 'hour', ms: 86_400_000 },
  { id: '7d', label: 'Last 7 days', interval: 'hour', ms: 7 * 86_400_000 },
  { id: '30d', label: 'Last 30 days', interval: 'day', ms: 30 * 86_400_000 },
];

/**
 * The range the chart opens on: the shortest that reaches back to the app's first release, so a new app's
 * first activations spread over the chart instead of making a spike at its right edge (an app released
 * 20 minutes ago opens on the last hour by minute; one released last week, on 7 days). Without releases,
 * 24 hours; an app older than every range, 7 days (its recent week, by hour).
 */
export function defaultRangeId(firstReleaseAt: string | undefined, nowMs: number): string {
  if (!firstReleaseAt) return '24h';
  const age = nowMs - Date.parse(firstReleaseAt);
  const fits = RANGES.find((r) => r.ms >= age);
  return fits && fits.id !== '30d' ? fits.id : '7d';
}

export interface ChartData {
  /** Unix seconds, ascending (uPlot's x axis): every bucket of the range, empty ones included. */
  x: number[];
  activations: number[];
  errors: number[];
  /**
   * Errors / (activations + errors) per bucket, in percent; null where a bucket has neither (a gap, not a
   * 0 % that never happened). Drawn on its own axis: a 20 % failure rate is a small count next to many
   * activations, and would be a flat line on their axis.
   */
  errorRate: Array<number | null>;
}

/**
 * Sums activations and errors per time bucket across releases (or of one release when `moduleId` is
 * given), in the column layout uPlot draws. Every bucket from `fromMs` to `toMs` is present (zero when the
 * series has no row for it), so the axis spans the range asked for and a quiet hour shows as zero.
 * Buckets are UTC-aligned multiples of the interval, as the stats endpoint rounds them.
 */
export function toChartData(
  series: StatsPoint[],
  range: { fromMs: number; toMs: number; interval: Interval },
  moduleId?: string,
): ChartData {
  const step = INTERVAL_MS[range.interval];
  const first = Math.floor(range.fromMs / step) * step;
  const last = Math.floor(range.toMs / step) * step;
  const x: number[] = [];
  const activations: number[] = [];
  const errors: number[] = [];
  const index = new Map<number, number>();
  for (let at = first; at <= last; at += step) {
    index.set(at, x.length);
    x.push(at / 1000);
    activations.push(0);
    errors.push(0);
  }
  for (const point of series) {
    if (moduleId && point.module_id !== moduleId) continue;
    const ms = Date.parse(point.ts);
    if (Number.isNaN(ms)) continue;
    const i = index.get(Math.floor(ms / step) * step);
    if (i === undefined) continue;
    activations[i]! += Number(point.activations) || 0;
    errors[i]! += Number(point.errors) || 0;
  }
  const errorRate = activations.map((a, i) => {
    const total = a + errors[i]!;
    return total === 0 ? null : (errors[i]! / total) * 100;
  });
  return { x, activations, errors, errorRate };
}
