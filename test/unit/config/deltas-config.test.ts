import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';
import { ConfigError } from '../../../src/config/env.js';

const VALID = {
  DATABASE_URL: 'postgres://u:p@localhost:5432/db',
  REDIS_URL: 'redis://localhost:6379',
  CLICKHOUSE_URL: 'http://localhost:8123',
  AUTH_TOKEN_SECRET: 's'.repeat(32),
  WEBHOOK_SECRET_KEY: 'ab'.repeat(32),
};

describe('delta settings', () => {
  it('default to 3 bases, a saving of 0.3, 5 minutes a job and 2 minutes a patch', () => {
    expect(loadConfig(VALID).deltas).toEqual({
      bases: 3,
      minSaving: 0.3,
      jobTimeoutMs: 300_000,
      patchTimeoutMs: 120_000,
    });
  });

  it('bound what a zip may inflate to by 4 × BUNDLE_MAX_BYTES unless BUNDLE_MAX_UNZIPPED_BYTES says', () => {
    expect(loadConfig({ ...VALID, BUNDLE_MAX_BYTES: '1000' }).bundles.maxUnzippedBytes).toBe(4000);
    expect(loadConfig({ ...VALID, BUNDLE_MAX_UNZIPPED_BYTES: '5000' }).bundles.maxUnzippedBytes).toBe(5000);
    expect(() => loadConfig({ ...VALID, BUNDLE_MAX_UNZIPPED_BYTES: '0' })).toThrow(
      /BUNDLE_MAX_UNZIPPED_BYTES/,
    );
    expect(() => loadConfig({ ...VALID, DELTA_JOB_TIMEOUT_MS: 'soon' })).toThrow(/DELTA_JOB_TIMEOUT_MS/);
  });

  it('take a count of bases and a saving from 0 to 1', () => {
    expect(loadConfig({ ...VALID, DELTA_BASES: '0', DELTA_MIN_SAVING: '1' }).deltas).toMatchObject({
      bases: 0,
      minSaving: 1,
    });
    expect(loadConfig({ ...VALID, DELTA_MIN_SAVING: '.55' }).deltas.minSaving).toBe(0.55);
  });

  it('refuse a saving outside 0 to 1 and a base count that is no count', () => {
    for (const bad of ['1.5', '-0.1', 'half', '30%'])
      expect(() => loadConfig({ ...VALID, DELTA_MIN_SAVING: bad }), bad).toThrow(ConfigError);
    expect(() => loadConfig({ ...VALID, DELTA_BASES: 'three' })).toThrow(/DELTA_BASES/);
  });
});
