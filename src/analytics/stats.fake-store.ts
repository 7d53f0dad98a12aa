import type { ReleaseRef, ReleaseStats } from '../releases/release-stats.js';
import type { LatestCheckGroup } from './device-checks.js';
import { deriveStats, type ReleaseCounts } from './stats.formulas.js';
import { floorTo, type Interval, type SeriesPoint } from './stats.series.js';
import type { StatsStore } from './stats.store.js';

/** Statistics in memory: tests set an app's points and a release's counts; everything else is zero. */
export class FakeStatsStore implements StatsStore {
  readonly points = new Map<string, SeriesPoint[]>();
  readonly counts = new Map<string, ReleaseCounts>();
  /** The arguments of every series read (the service decides the range and interval). */
  readonly reads: Array<{ appId: string; from: Date; to: Date; interval: Interval }> = [];

  async series(appId: string, from: Date, to: Date, interval: Interval): Promise<SeriesPoint[]> {
    this.reads.push({ appId, from, to, interval });
    const start = floorTo(from, interval).getTime();
    return (this.points.get(appId) ?? []).filter((p) => {
      const at = Date.parse(p.ts);
      return at >= start && at < to.getTime();
    });
  }

  async statsFor(releases: readonly ReleaseRef[]): Promise<Map<string, ReleaseStats>> {
    const none: ReleaseCounts = { downloads: 0, activations: 0, errors: 0, channelDevices: 0, running: 0 };
    return new Map(releases.map((r) => [r.id, deriveStats(this.counts.get(r.id) ?? none, r.rollout_pct)]));
  }

  /** Groups a test sets (`checks`), as ClickHouse would answer them. */
  readonly checks: LatestCheckGroup[] = [];

  async latestChecks(appId: string): Promise<LatestCheckGroup[]> {
    return this.checks.filter((g) => g.app_id === appId);
  }
}
