import { describe, expect, it } from 'vitest';
import { pluginAbilities, UNKNOWN_PLUGIN } from '../../../src/capacitor/plugin-versions.js';

const checksum = (v: string, platform = 'android') => pluginAbilities(v, platform).checksum;
const manifest = (v: string) => pluginAbilities(v, 'ios').manifest;
const channel = (v: string) => pluginAbilities(v, 'android').channel;

/** The table of plugin-versions.ts at the bounds API.md "Client versions" names. */
describe('Capacitor plugin versions', () => {
  it('verify CRC32 before 5.10.0, 6.14.28 and 7.0.2, nothing on Android 7.0.2-7.0.29, SHA-256 otherwise', () => {
    for (const v of ['5.4.1', '5.9.5', '6.0.1', '6.5.0', '6.14.27', '7.0.0', '7.0.1']) {
      expect(checksum(v), v).toBe('crc32');
      expect(checksum(v, 'ios'), v).toBe('crc32');
    }
    for (const v of ['7.0.2', '7.0.29']) {
      expect(checksum(v), v).toBe('none');
      expect(checksum(v, 'ios'), v).toBe('sha256');
    }
    for (const v of [
      '5.10.0',
      '5.34.0',
      '6.14.28',
      '6.34.0',
      '7.0.30',
      '7.33.4',
      '8.0.0',
      '8.51.14',
      '9.0.0',
    ]) {
      expect(checksum(v), v).toBe('sha256');
      expect(checksum(v, 'ios'), v).toBe('sha256');
    }
  });

  it('apply a manifest from 5.10.0, 6.14.28, 7.0.38 and 8, not 6.3.0-6.14.27 nor 7.0.2-7.0.37', () => {
    for (const v of ['5.10.0', '5.50.1', '6.14.28', '6.34.0', '7.0.38', '7.33.4', '8.2.0', '8.51.14'])
      expect(manifest(v), v).toBe(true);
    for (const v of ['5.4.1', '5.9.5', '6.3.0', '6.14.27', '7.0.2', '7.0.35', '7.0.37'])
      expect(manifest(v), v).toBe(false);
  });

  it('keep the channel on the server below 5.34.0, 6.34.0 and 7.34.0, on the device from there', () => {
    for (const v of ['5.4.1', '5.33.9', '6.3.0', '6.33.0', '7.0.1', '7.33.4'])
      expect(channel(v), v).toBe('server');
    for (const v of ['5.34.0', '5.50.1', '6.34.0', '7.34.0', '7.35.0-alpha.0', '8.0.0', '8.51.14'])
      expect(channel(v), v).toBe('device');
  });

  it('send key_id from 8.2.0 and the 5.50, 6.50.1, 7.50.1 lines; read hex signatures from x.30', () => {
    for (const v of ['7.33.4', '8.1.0', '6.50.0', '7.50.0'])
      expect(pluginAbilities(v, 'ios').sendsKeyId, v).toBe(false);
    for (const v of ['8.2.0', '8.51.14', '5.50.1', '6.50.1', '7.50.1'])
      expect(pluginAbilities(v, 'ios').sendsKeyId, v).toBe(true);
    for (const v of ['5.29.0', '6.29.9', '7.29.0'])
      expect(pluginAbilities(v, 'ios').readsHexSignature, v).toBe(false);
    for (const v of ['5.30.0', '6.30.0', '7.30.0', '8.0.0'])
      expect(pluginAbilities(v, 'ios').readsHexSignature, v).toBe(true);
  });

  it('take a version it cannot read for the safest reading: SHA-256, no manifest, channel from the body', () => {
    for (const v of [undefined, '', 'garbage', '8', '1.2.3.4', `${'9'.repeat(60)}`]) {
      expect(pluginAbilities(v, 'android'), String(v)).toEqual(UNKNOWN_PLUGIN);
    }
    expect(UNKNOWN_PLUGIN).toMatchObject({ checksum: 'sha256', manifest: false, channel: 'device' });
    // The lookup is memoised per platform and version: the same answer again.
    expect(pluginAbilities('7.0.2', 'android')).toBe(pluginAbilities('7.0.2', 'android'));
  });
});
