import { describe, expect, it } from 'vitest';
import { AdmittedDevices } from '../../../src/devices/admitted-devices.js';
import { retainedBytesEach, sliceOfPaddedText } from '../../helpers/retained-heap.js';

describe('admitted devices (bounded LRU with expiry)', () => {
  it('remembers an admission until it expires, counted from admission', () => {
    let now = 0;
    const cache = new AdmittedDevices(10, 1000, () => now);
    cache.add('ws', 'd1');
    now = 999;
    expect(cache.has('ws', 'd1')).toBe(true);
    now = 1000;
    expect(cache.has('ws', 'd1')).toBe(false);
    expect(cache.size).toBe(0);
  });

  it('keeps workspaces apart', () => {
    const cache = new AdmittedDevices(10, 1000);
    cache.add('ws-a', 'd1');
    expect(cache.has('ws-b', 'd1')).toBe(false);
  });

  it('holds at most its capacity, evicting the least recently used', () => {
    const cache = new AdmittedDevices(3, 60_000);
    for (const d of ['a', 'b', 'c']) cache.add('ws', d);
    expect(cache.has('ws', 'a')).toBe(true); // a is now the most recent
    cache.add('ws', 'd');
    expect(cache.size).toBe(3);
    expect(cache.has('ws', 'b')).toBe(false);
    expect(cache.has('ws', 'a')).toBe(true);
    expect(cache.has('ws', 'c')).toBe(true);
    expect(cache.has('ws', 'd')).toBe(true);
    for (let i = 0; i < 10_000; i++) cache.add('ws', `x${i}`);
    expect(cache.size).toBe(3);
  });
});

describe('admitted devices under churn', () => {
  it('never evicts a device that keeps checking in, however many new devices pass through', () => {
    const cache = new AdmittedDevices(100, 60_000);
    cache.add('ws', 'hot');
    for (let i = 0; i < 10_000; i++) {
      cache.add('ws', `cold-${i}`);
      if (i % 10 === 0) expect(cache.has('ws', 'hot')).toBe(true);
    }
    expect(cache.has('ws', 'hot')).toBe(true);
    expect(cache.size).toBe(100);
  });

  it('keeps no request text alive with the devices it remembers', async () => {
    const cache = new AdmittedDevices(10_000, 60_000);
    const perDevice = await retainedBytesEach(2000, (i) =>
      cache.add('ws', sliceOfPaddedText('device_id=', `dev-${String(i).padStart(8, '0')}-padded`)),
    );
    expect(perDevice).toBeLessThan(2000);
    expect(cache.has('ws', 'dev-00000007-padded')).toBe(true);
  });
});
