import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveStats } from '../../../src/analytics/stats.formulas.js';

describe('release statistics formulas', () => {
  it('computes the specification ratios', () => {
    expect(deriveStats({ downloads: 10, activations: 8, errors: 2, channelDevices: 40 }, 50)).toEqual({
      downloads: 10,
      activations: 8,
      errors: 2,
      targeted_pct: 50,
      eligible_devices: 20,
      received_pct: 40,
      adoption: 0.8,
      failure_rate: 0.2,
      running: 0,
      bytes_served: { full: 0, patch: 0, per_file: 0 },
    });
  });

  it('gives 0 for every zero denominator', () => {
    const s = deriveStats({ downloads: 0, activations: 0, errors: 0, channelDevices: 0 }, 100);
    expect(s).toMatchObject({ received_pct: 0, adoption: 0, failure_rate: 0, eligible_devices: 0 });
    expect(deriveStats({ downloads: 0, activations: 5, errors: 0, channelDevices: 0 }, 100)).toMatchObject({
      received_pct: 0,
      adoption: 0,
      failure_rate: 0,
    });
    expect(deriveStats({ downloads: 3, activations: 0, errors: 4, channelDevices: 10 }, 0)).toMatchObject({
      eligible_devices: 0,
      received_pct: 0,
      failure_rate: 1,
    });
  });

  it('caps received_pct at 100 and adoption at 1', () => {
    const s = deriveStats({ downloads: 2, activations: 9, errors: 0, channelDevices: 4 }, 100);
    expect(s.received_pct).toBe(100);
    expect(s.adoption).toBe(1);
  });

  it('stays within range and never yields NaN', () => {
    const n = fc.integer({ min: 0, max: 1_000_000 });
    fc.assert(
      fc.property(n, n, n, n, fc.double({ min: 0, max: 100, noNaN: true }), (d, a, e, c, pct) => {
        const s = deriveStats({ downloads: d, activations: a, errors: e, channelDevices: c }, pct);
        const { bytes_served: bytes, ...ratios } = s;
        for (const v of [...Object.values(ratios), bytes.full, bytes.patch])
          expect(Number.isFinite(v)).toBe(true);
        expect(s.received_pct).toBeGreaterThanOrEqual(0);
        expect(s.received_pct).toBeLessThanOrEqual(100);
        expect(s.adoption).toBeLessThanOrEqual(1);
        expect(s.failure_rate).toBeLessThanOrEqual(1);
        expect(s.eligible_devices).toBeLessThanOrEqual(c);
        expect(s.targeted_pct).toBe(pct);
      }),
    );
  });
});
