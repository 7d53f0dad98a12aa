import { chDateTime, chStringList } from '../platform/clickhouse.js';
import { binaryRangeOf } from '../releases/binary-range.js';

/**
 * Devices grouped by what their latest update check in the active window said (ClickHouse
 * device_checks_day, sql/clickhouse/002_device_checks_day.sql): each device is in exactly one group, so
 * summing groups never counts a device twice.
 */
export interface LatestCheckGroup {
  app_id: string;
  /** The module the device runs after that check; '' for the bundle embedded in the app binary. */
  module_id: string;
  channel: string;
  /** The normalised native version the check sent; '' when it sent none. */
  app_version: string;
  devices: number;
}

/**
 * One row per device (its latest check since `since`), then counted by module, channel and version: the
 * groups are few (modules × channels × native versions), the inner read one row per device and day.
 */
export function latestChecksQuery(apps: readonly string[], since: Date): string {
  return `
    SELECT app_id, module_id, channel, app_version, count() AS devices
    FROM (
      SELECT app_id, device_id,
        argMaxMerge(latest_module) AS module_id,
        argMaxMerge(latest_channel) AS channel,
        argMaxMerge(latest_version) AS app_version
      FROM device_checks_day
      WHERE app_id IN ${chStringList(apps)} AND day >= ${chDateTime(since)}
      GROUP BY app_id, device_id
    )
    GROUP BY app_id, module_id, channel, app_version`;
}

/** Devices whose latest check reports `moduleId` as the module they run: the release's `running` figure. */
export function runningDevices(groups: readonly LatestCheckGroup[], appId: string, moduleId: string): number {
  let devices = 0;
  for (const g of groups) if (g.app_id === appId && g.module_id === moduleId) devices += g.devices;
  return devices;
}

/**
 * Devices a release with a binary range can reach: those whose latest check was on its channel with a
 * native version the range admits. A device that sent no version is not counted: the update check never
 * serves a release with a range to it (src/updates/resolve.ts, fitsShell), so it is not eligible.
 */
export function devicesInRange(
  groups: readonly LatestCheckGroup[],
  appId: string,
  channel: string,
  targetBinaryRange: string,
): number {
  const range = binaryRangeOf(targetBinaryRange);
  if (range === null) return 0;
  let devices = 0;
  for (const g of groups) {
    if (g.app_id !== appId || g.channel !== channel || g.app_version === '') continue;
    if (range.admits(g.app_version)) devices += g.devices;
  }
  return devices;
}
