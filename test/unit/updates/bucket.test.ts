import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { admits, BUCKETS, bucketOf } from '../../../src/updates/bucket.js';

interface Vector {
  module_id: string;
  device_id: string;
  bucket: number;
}

// The vectors docs/reference/update-check.md publishes and the SDKs' tests share.
const { vectors } = JSON.parse(readFileSync(new URL('./bucket-vectors.json', import.meta.url), 'utf8')) as {
  vectors: Vector[];
};

const deviceId = fc.stringMatching(/^[A-Za-z0-9._:-]{1,128}$/);
const moduleId = fc.uuid();

/** Deterministic ids, so the statistical tests give the same answer on every run. */
const ids = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

// Statistical tests hash tens of thousands of ids; a loaded machine must not turn them into time-outs.
const HEAVY = 20_000;

// Chi-square critical value for 99 degrees of freedom at p = 0.001.
const CHI2_99_P001 = 148.23;

function chiSquare(counts: number[], expected: number): number {
  return counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
}

describe('bucketing: published test vectors', () => {
  it('has vectors covering both ends of the range', () => {
    expect(vectors.length).toBeGreaterThanOrEqual(10);
    expect(vectors.some((v) => v.bucket === 0)).toBe(true);
    expect(vectors.some((v) => v.bucket === 99)).toBe(true);
  });

  it.each(vectors)('bucket($module_id, $device_id) = $bucket', (v) => {
    expect(bucketOf(v.module_id, v.device_id)).toBe(v.bucket);
  });

  it('matches the table of docs/reference/update-check.md, byte for byte', () => {
    const page = readFileSync(new URL('../../../docs/reference/update-check.md', import.meta.url), 'utf8');
    const rows = [
      ...page.matchAll(/^\| `([0-9a-f-]{36})` \| (.+?) +\| `([0-9a-f]{8})` +\| (\d+) +\| (\d+) +\|$/gm),
    ];
    expect(rows.length).toBeGreaterThanOrEqual(10);
    for (const [, moduleId, deviceCell, first4, uint32, bucket] of rows) {
      const repeated = /^`(.)` × (\d+)$/.exec(deviceCell!.trim());
      const deviceId = repeated ? repeated[1]!.repeat(Number(repeated[2])) : deviceCell!.trim().slice(1, -1);
      const digest = createHash('sha256').update(`${moduleId}:${deviceId}`).digest();
      expect(digest.subarray(0, 4).toString('hex')).toBe(first4);
      expect(digest.readUInt32BE(0)).toBe(Number(uint32));
      expect(bucketOf(moduleId!, deviceId)).toBe(Number(bucket));
      expect(vectors.some((v) => v.module_id === moduleId && v.device_id === deviceId)).toBe(true);
    }
  });
});

describe('bucketing: properties', () => {
  it(
    'is an integer 0-99, stable for the same module and device',
    () => {
      fc.assert(
        fc.property(moduleId, deviceId, (m, d) => {
          const b = bucketOf(m, d);
          return Number.isInteger(b) && b >= 0 && b < BUCKETS && bucketOf(m, d) === b;
        }),
        { numRuns: 2000 },
      );
    },
    HEAVY,
  );

  it(
    'never removes a device when the percentage is raised',
    () => {
      fc.assert(
        fc.property(
          moduleId,
          deviceId,
          fc.double({ min: 0, max: 100, noNaN: true }),
          fc.double({ min: 0, max: 100, noNaN: true }),
          (m, d, p, q) => {
            const [low, high] = p <= q ? [p, q] : [q, p];
            const b = bucketOf(m, d);
            return !admits(b, low) || admits(b, high);
          },
        ),
        { numRuns: 2000 },
      );
    },
    HEAVY,
  );

  it(
    'admits nobody at 0 % and everybody at 100 %',
    () => {
      fc.assert(
        fc.property(moduleId, deviceId, (m, d) => !admits(bucketOf(m, d), 0) && admits(bucketOf(m, d), 100)),
        { numRuns: 1000 },
      );
    },
    HEAVY,
  );

  it(
    'spreads devices uniformly over the 100 buckets (chi-square, p = 0.001)',
    () => {
      const n = 50_000;
      for (const module of ['3f0c6d2e-8a41-4c7b-9e15-2b7d9a0c4e61', '9b2e4f10-5c3a-4d8e-a7b1-0e6f2c9d8a35']) {
        const counts = new Array<number>(BUCKETS).fill(0);
        for (const d of ids(n, 'device')) counts[bucketOf(module, d)]! += 1;
        expect(chiSquare(counts, n / BUCKETS)).toBeLessThan(CHI2_99_P001);
      }
    },
    HEAVY,
  );

  it(
    'gives each release its own cohort: buckets of two releases are independent',
    () => {
      const n = 20_000;
      let both = 0;
      for (const d of ids(n, 'pair')) {
        if (bucketOf('release-a', d) < 50 && bucketOf('release-b', d) < 50) both += 1;
      }
      // Independent halves overlap on a quarter of devices (standard deviation about 0.3 points).
      expect(both / n).toBeGreaterThan(0.235);
      expect(both / n).toBeLessThan(0.265);
    },
    HEAVY,
  );

  it(
    'admits about the given share of devices at each percentage',
    () => {
      const n = 20_000;
      const buckets = ids(n, 'share').map((d) => bucketOf('7d1f0e52-6a44-4b0e-8f3a-91c2d5e6b7a8', d));
      for (const pct of [1, 5, 10, 25, 33.3, 50, 75, 90, 99]) {
        const share = buckets.filter((b) => admits(b, pct)).length / n;
        // Buckets are whole numbers: 33.3 % admits buckets 0-33, i.e. 34 %.
        const expected = Math.ceil(pct) / 100;
        // Four standard deviations of a binomial share at n = 20,000 is at most 1.5 points.
        expect(Math.abs(share - expected)).toBeLessThan(0.015);
      }
    },
    HEAVY,
  );
});
