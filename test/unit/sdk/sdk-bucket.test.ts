import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucket, inRollout } from '../../../sdk/bucket.js';

interface Vector {
  module_id: string;
  device_id: string;
  bucket: number;
}

const file = JSON.parse(readFileSync(new URL('../updates/bucket-vectors.json', import.meta.url), 'utf8')) as {
  vectors: Vector[];
};

/** The server's formula, written with node:crypto: uint32_be(sha256(module_id:device_id)[0..4]) % 100. */
function nodeBucket(moduleId: string, deviceId: string): number {
  return createHash('sha256').update(`${moduleId}:${deviceId}`, 'utf8').digest().readUInt32BE(0) % 100;
}

describe('bucket(moduleId, deviceId)', () => {
  it('reproduces every published test vector', () => {
    expect(file.vectors.length).toBeGreaterThan(20);
    for (const v of file.vectors) {
      expect(nodeBucket(v.module_id, v.device_id)).toBe(v.bucket);
      expect(bucket(v.module_id, v.device_id)).toBe(v.bucket);
    }
    const buckets = new Set(file.vectors.map((v) => v.bucket));
    expect(buckets.has(0) && buckets.has(99)).toBe(true);
  });

  it('equals the node:crypto formula for arbitrary ids', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.stringMatching(/^[A-Za-z0-9._:-]{1,128}$/), (moduleId, deviceId) => {
        const b = bucket(moduleId, deviceId);
        return b === nodeBucket(moduleId, deviceId) && b >= 0 && b <= 99 && Number.isInteger(b);
      }),
      { numRuns: 1000 },
    );
  });

  it('admits a device exactly when its bucket is below the rollout percentage', () => {
    const v = file.vectors[0]!;
    expect(inRollout(v.module_id, v.device_id, v.bucket)).toBe(false);
    expect(inRollout(v.module_id, v.device_id, v.bucket + 1)).toBe(true);
    expect(inRollout(v.module_id, v.device_id, 100)).toBe(true);
    expect(inRollout(v.module_id, v.device_id, 0)).toBe(false);
  });
});
