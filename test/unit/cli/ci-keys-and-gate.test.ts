import { describe, expect, it } from 'vitest';
import { expiryOf } from '../../../cli/commands/team.js';
import { keyExpired } from '../../../src/api-keys/key-scope.js';
import { compatibilityOf } from '../../../src/compatibility/compatibility.js';

const group = (module_id: string, channel: string, app_version: string, devices: number) => ({
  app_id: 'a',
  module_id,
  channel,
  app_version,
  devices,
});

describe('compatibility of a release with the devices seen', () => {
  const groups = [
    group('r1', 'production', '2.1.0', 3),
    group('', 'production', '2.0.0', 2),
    group('r2', 'production', '', 1),
    group('r1', 'beta', '2.1.0', 7),
  ];
  const fingerprints = new Map([
    ['r1', 'shell-a'],
    ['r2', null],
  ]);

  it('counts the devices of the channel, and those the range and the fingerprint admit', () => {
    expect(compatibilityOf(groups, fingerprints, { channel: 'production' })).toEqual({
      devices_seen: 6,
      compatible_devices: 6,
    });
    expect(
      compatibilityOf(groups, fingerprints, { channel: 'production', target_binary_range: '^2.0.0' }),
    ).toEqual({
      devices_seen: 6,
      compatible_devices: 5,
    });
    // A device on its binary's bundle (module '') has no known fingerprint.
    expect(compatibilityOf(groups, fingerprints, { channel: 'production', fingerprint: 'shell-a' })).toEqual({
      devices_seen: 6,
      compatible_devices: 3,
    });
    expect(
      compatibilityOf(groups, fingerprints, {
        channel: 'production',
        fingerprint: 'shell-a',
        target_binary_range: '^3.0.0',
      }).compatible_devices,
    ).toBe(0);
    expect(compatibilityOf(groups, fingerprints, { channel: 'pr-1' })).toEqual({
      devices_seen: 0,
      compatible_devices: 0,
    });
  });
});

describe('key expiry', () => {
  it('reads 90d, 12w, 6m, 1y and ISO dates, and refuses anything else', () => {
    const now = Date.parse('2026-01-01T00:00:00.000Z');
    expect(expiryOf('90d', now)).toBe('2026-04-01T00:00:00.000Z');
    expect(expiryOf('2w', now)).toBe('2026-01-15T00:00:00.000Z');
    expect(expiryOf('1y', now)).toBe('2027-01-01T00:00:00.000Z');
    expect(expiryOf('2026-03-01', now)).toBe('2026-03-01T00:00:00.000Z');
    expect(() => expiryOf('soon', now)).toThrow(/--expires takes/);
    expect(() => expiryOf('0d', now)).toThrow(/at least a day/);
  });

  it('refuses a key from its expiry instant on', () => {
    const at = new Date('2026-01-01T00:00:00.000Z');
    expect(keyExpired(null)).toBe(false);
    expect(keyExpired(at, at.getTime() - 1)).toBe(false);
    expect(keyExpired(at, at.getTime())).toBe(true);
  });
});
