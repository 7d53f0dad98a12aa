import { type ClickHouseClient, chDateTime, chStringList } from '../platform/clickhouse.js';
import type { ReleaseRef, ReleaseStats } from '../releases/release-stats.js';
import { devicesInRange, type LatestCheckGroup, latestChecksQuery, runningDevices } from './device-checks.js';
import { deriveStats } from './stats.formulas.js';
import { type Interval, type SeriesPoint, seriesQuery } from './stats.series.js';
import type { StatsStore } from './stats.store.js';

interface CountRow {
  kind: 'module' | 'channel';
  app_id: string;
  name: string;
  downloads: string;
  activations: string;
  errors: string;
  devices: string;
}

const DAY_SECONDS = 86_400;

/** ClickHouse writes UInt64 counts as strings in JSON. */
type LatestCheckRow = Omit<LatestCheckGroup, 'devices'> & { devices: string };

interface SeriesRow {
  bucket: string | number;
  module_id: string;
  checks: string;
  downloads: string;
  activations: string;
  errors: string;
  devices: string;
}

/**
 * Statistics from ClickHouse: release totals from the daily rollup; the time series from the rollups and,
 * for device-sent events (which a device may repeat with another time), the raw events of the range
 * (stats.series.ts).
 */
export class ClickHouseStatsStore implements StatsStore {
  constructor(
    private readonly ch: ClickHouseClient,
    private readonly windowDays: number,
    private readonly now: () => number = Date.now,
  ) {}

  async series(appId: string, from: Date, to: Date, interval: Interval): Promise<SeriesPoint[]> {
    const rs = await this.ch.query({ query: seriesQuery(appId, from, to, interval), format: 'JSONEachRow' });
    return (await rs.json<SeriesRow>()).map((r) => ({
      ts: new Date(Number(r.bucket) * 1000).toISOString(),
      module_id: r.module_id === '' ? null : r.module_id,
      checks: Number(r.checks),
      downloads: Number(r.downloads),
      activations: Number(r.activations),
      errors: Number(r.errors),
      devices: Number(r.devices),
    }));
  }

  /**
   * Two queries per page of releases, run together. From the daily rollup: counts are exact distinct event
   * ids over the release's whole life (within retention), and eligible devices come from the update checks
   * of the release's channel over the active window (DEVICE_WINDOW_DAYS). From each device's latest check
   * in that window (device-checks.ts): the devices running each release, and, for a release with a binary
   * range, the eligible devices of its channel whose native version the range admits.
   */
  async statsFor(releases: readonly ReleaseRef[]): Promise<Map<string, ReleaseStats>> {
    const out = new Map<string, ReleaseStats>();
    if (releases.length === 0) return out;
    const apps = [...new Set(releases.map((r) => r.app_id))];
    const modules = [...new Set(releases.map((r) => r.id))];
    const channels = [...new Set(releases.map((r) => r.channel))];
    const since = new Date(
      (Math.floor(this.now() / 1000 / DAY_SECONDS) - this.windowDays) * DAY_SECONDS * 1000,
    );
    const query = `
      SELECT 'module' AS kind, app_id, module_id AS name,
        uniqExactMergeIf(events, type = 'download') AS downloads,
        uniqExactMergeIf(events, type = 'activation') AS activations,
        uniqExactMergeIf(events, type = 'error') AS errors,
        toUInt64(0) AS devices
      FROM device_events_day
      WHERE app_id IN ${chStringList(apps)} AND module_id IN ${chStringList(modules)}
        AND type IN ('download', 'activation', 'error')
      GROUP BY app_id, module_id
      UNION ALL
      SELECT 'channel' AS kind, app_id, channel AS name,
        toUInt64(0) AS downloads, toUInt64(0) AS activations, toUInt64(0) AS errors,
        uniqCombinedMerge(devices) AS devices
      FROM device_events_day
      WHERE app_id IN ${chStringList(apps)} AND channel IN ${chStringList(channels)}
        AND type = 'check' AND day >= ${chDateTime(since)}
      GROUP BY app_id, channel`;
    const [rs, latestRs] = await Promise.all([
      this.ch.query({ query, format: 'JSONEachRow' }),
      this.ch.query({ query: latestChecksQuery(apps, since), format: 'JSONEachRow' }),
    ]);
    const counts = new Map<string, CountRow>();
    for (const row of await rs.json<CountRow>()) counts.set(`${row.kind}|${row.app_id}|${row.name}`, row);
    const latest = (await latestRs.json<LatestCheckRow>()).map((g) => ({
      ...g,
      devices: Number(g.devices),
    }));
    for (const r of releases) {
      const m = counts.get(`module|${r.app_id}|${r.id}`);
      const c = counts.get(`channel|${r.app_id}|${r.channel}`);
      const range = r.target_binary_range ?? null;
      out.set(
        r.id,
        deriveStats(
          {
            downloads: Number(m?.downloads ?? 0),
            activations: Number(m?.activations ?? 0),
            errors: Number(m?.errors ?? 0),
            channelDevices:
              range === null ? Number(c?.devices ?? 0) : devicesInRange(latest, r.app_id, r.channel, range),
            running: runningDevices(latest, r.app_id, r.id),
          },
          r.rollout_pct,
        ),
      );
    }
    return out;
  }

  async latestChecks(appId: string, since: Date): Promise<LatestCheckGroup[]> {
    const rs = await this.ch.query({ query: latestChecksQuery([appId], since), format: 'JSONEachRow' });
    return (await rs.json<LatestCheckRow>()).map((g) => ({ ...g, devices: Number(g.devices) }));
  }
}
