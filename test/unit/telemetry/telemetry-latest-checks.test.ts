import { describe, expect, it } from 'vitest';
import {
  devicesInRange,
  type LatestCheckGroup,
  latestChecksQuery,
  runningDevices,
} from '../../../src/analytics/device-checks.js';
import { deriveStats } from '../../../src/analytics/stats.formulas.js';

const group = (
  module_id: string,
  channel: string,
  app_version: string,
  devices: number,
  app_id = 'app-1',
): LatestCheckGroup => ({ app_id, module_id, channel, app_version, devices });

// Devices grouped by their latest check: 10 on 1.4.0, 6 on 2.0.0 and 3 on 2.3.1 in production, 4 that sent
// no version, 5 on 2.0.0 in beta, and 7 of another app on 2.0.0.
const groups = [
  group('r1', 'production', '1.4.0', 10),
  group('r2', 'production', '2.0.0', 6),
  group('r2', 'production', '2.3.1', 3),
  group('', 'production', '', 4),
  group('r3', 'beta', '2.0.0', 5),
  group('r2', 'production', '2.0.0', 7, 'app-2'),
];

describe('devices a binary range admits', () => {
  it('counts only devices of the channel whose native version the range admits', () => {
    expect(devicesInRange(groups, 'app-1', 'production', '^2.0.0')).toBe(9);
    expect(devicesInRange(groups, 'app-1', 'production', '>=1.0.0 <2.0.0')).toBe(10);
    expect(devicesInRange(groups, 'app-1', 'production', '2.0.x')).toBe(6);
    expect(devicesInRange(groups, 'app-1', 'beta', '^2.0.0')).toBe(5);
    expect(devicesInRange(groups, 'app-2', 'production', '^2.0.0')).toBe(7);
  });

  it('leaves out devices that sent no version: a release with a range is never served to them', () => {
    expect(devicesInRange(groups, 'app-1', 'production', '*')).toBe(19);
  });

  it('admits no device for a stored range that no longer parses', () => {
    expect(devicesInRange(groups, 'app-1', 'production', 'not a range')).toBe(0);
  });

  it('feeds received % through the same formula: activations over the admitted devices only', () => {
    // 9 devices on 2.x in production; 50 % rollout → 5 eligible (rounded); 3 activations → 60 %.
    const inRange = devicesInRange(groups, 'app-1', 'production', '^2.0.0');
    const s = deriveStats({ downloads: 3, activations: 3, errors: 0, channelDevices: inRange }, 50);
    expect(s).toMatchObject({ eligible_devices: 5, received_pct: 60 });
  });
});

describe('devices running a release', () => {
  it('sums the devices whose latest check reports the release, of its app only', () => {
    expect(runningDevices(groups, 'app-1', 'r2')).toBe(9);
    expect(runningDevices(groups, 'app-1', 'r1')).toBe(10);
    expect(runningDevices(groups, 'app-2', 'r2')).toBe(7);
    expect(runningDevices(groups, 'app-1', 'gone')).toBe(0);
  });

  it('is carried into the stats as counted, independent of adoption', () => {
    const s = deriveStats({ downloads: 10, activations: 10, errors: 0, channelDevices: 20, running: 0 }, 100);
    expect(s).toMatchObject({ adoption: 1, running: 0 });
    expect(deriveStats({ downloads: 1, activations: 1, errors: 0, channelDevices: 1 }, 100).running).toBe(0);
  });

  it('reads one row per device for the apps of the page, within the window', () => {
    const q = latestChecksQuery(['app-1', 'app-2'], new Date('2026-11-01T00:00:00Z'));
    expect(q).toContain('FROM device_checks_day');
    expect(q).toContain("app_id IN ('app-1', 'app-2')");
    expect(q).toContain('GROUP BY app_id, device_id');
  });
});
