import { Type } from '@sinclair/typebox';
import { Count, type EnvOf, int } from './env.js';

/** The deltas worker's variables. */
export const DELTA_ENV = {
  DELTA_BASES: Count('3'),
  DELTA_MIN_SAVING: Type.String({ pattern: '^(0(\\.[0-9]+)?|1(\\.0+)?|\\.[0-9]+)$', default: '0.3' }),
  DELTA_JOB_TIMEOUT_MS: Count('300000'),
  DELTA_PATCH_TIMEOUT_MS: Count('120000'),
};

/**
 * Smaller downloads made by the deltas worker (docs/reference/delta-updates.md): from up to `bases`
 * earlier releases, kept when they save at least `minSaving` (0-1) of the full download. A release's
 * job stops making deltas after `jobTimeoutMs`, one bsdiff run is killed after `patchTimeoutMs`.
 */
export interface DeltaSettings {
  bases: number;
  minSaving: number;
  jobTimeoutMs: number;
  patchTimeoutMs: number;
}

export function deltaSettings(e: EnvOf<typeof DELTA_ENV>): DeltaSettings {
  return {
    bases: int(e.DELTA_BASES),
    minSaving: Number(e.DELTA_MIN_SAVING),
    // At least a second: 0 would drop every delta.
    jobTimeoutMs: Math.max(1000, int(e.DELTA_JOB_TIMEOUT_MS)),
    patchTimeoutMs: Math.max(1000, int(e.DELTA_PATCH_TIMEOUT_MS)),
  };
}
