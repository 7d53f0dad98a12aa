import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyDeviceKey, deviceKey } from '../../../src/edge/device-key.js';

const APP = '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
const key = (body: unknown, ip = '10.0.0.1') => bodyDeviceKey(body, ip);

describe('the per-device limit key', () => {
  it('is the app and the device of an update check', () => {
    expect(key({ app_id: APP, device_id: 'phone-1' })).toBe(`device:${APP}:phone-1`);
    expect(key({ app_id: APP.toUpperCase(), device_id: 'phone-1' })).toBe(`device:${APP}:phone-1`);
  });

  it('is the app and the first event’s device of an event batch', () => {
    const events = [{ device_id: 'phone-2' }, { device_id: 'phone-3' }];
    expect(key({ app_id: APP, events })).toBe(`device:${APP}:phone-2`);
  });

  it('falls back to the client address when no usable device id is sent', () => {
    expect(key({ app_id: APP })).toBe(`device:${APP}:ip:10.0.0.1`);
    expect(key({ app_id: APP, device_id: 'has space' })).toBe(`device:${APP}:ip:10.0.0.1`);
    expect(key({ app_id: APP, device_id: 'x'.repeat(129) })).toBe(`device:${APP}:ip:10.0.0.1`);
    expect(key({ app_id: 'not-an-id', events: [] })).toBe('device:-:ip:10.0.0.1');
    expect(key(null)).toBe('device:-:ip:10.0.0.1');
    expect(key([APP])).toBe('device:-:ip:10.0.0.1');
  });

  it('stays short for any body', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.ipV4(), (body, ip) => {
        const k = bodyDeviceKey(body, ip);
        return k.length <= 8 + 36 + 1 + Math.max(128, 3 + ip.length);
      }),
    );
  });

  it('is the same key for the same app and device however a protocol names them', () => {
    expect(deviceKey(APP.toUpperCase(), 'phone-1', '10.0.0.9')).toBe(
      key({ app_id: APP, device_id: 'phone-1' }),
    );
    expect(deviceKey(undefined, undefined, '10.0.0.1')).toBe('device:-:ip:10.0.0.1');
  });
});
