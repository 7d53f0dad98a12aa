import type { StatsPoint } from '../../client/index.js';

export type Interval = 'minute' | 'hour' | 'day';

/** Each chart range asks the stats endpoint for one bucket size, so a range has a readable point count. */
export const RANGES: Array<{ id: string; label: string; interval: Interval; ms: number }> = [
  { id: '1h', label: 'Last hour', interval: 'minute', ms: 3_600_000 },
  { id: '24h', label: 'Last 24 hours', interval: 'hour', ms: 86_400_000 },
  { id: '30d', label: 'Last 30 days', interval: 'day', ms: 30 * 86_400_000 },
];

export interface ChartData {
  /** Unix seconds, ascending (uPlot's x axis). */
  x: number[];
  activations: number[];
  errors: number[];
}

/**
 * Sums activations and errors per time bucket across releases (or of one release when `moduleId` is
 * given), in the column layout uPlot draws.
 */
export function toChartData(series: StatsPoint[], moduleId?: string): ChartData {
  const buckets = new Map<number, { activations: number; errors: number }>();
  for (const point of series) {
    if (moduleId && point.module_id !== moduleId) continue;
    const ms = Date.parse(point.ts);
    if (Number.isNaN(ms)) continue;
    const at = Math.floor(ms / 1000);
    const bucket = buckets.get(at) ?? { activations: 0, errors: 0 };
    bucket.activations += Number(point.activations) || 0;
    bucket.errors += Number(point.errors) || 0;
    buckets.set(at, bucket);
  }
  const x = [...buckets.keys()].sort((a, b) => a - b);
  return {
    x,
    activations: x.map((t) => buckets.get(t)!.activations),
    errors: x.map((t) => buckets.get(t)!.errors),
  };
}
