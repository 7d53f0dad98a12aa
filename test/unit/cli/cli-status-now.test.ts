import { describe, expect, it } from 'vitest';
import { STATUS_COLUMNS_NARROW, statusRowNarrow, supersededIds } from '../../../cli/status-report.js';
import type { ReleaseWithStats } from '../../../client/types.js';

const base = {
  app_id: 'a',
  channel: 'production',
  rollout_pct: 100,
  mandatory: false,
  notes: '',
  sha256: 'x',
  size: 1,
  fingerprint: null,
  target_binary_range: null,
  active: true,
  rolled_back_at: null,
  capacitor: null,
  paused: false,
  promoted_from: null,
};
const stats = (running: number) => ({
  downloads: 1,
  activations: 1,
  errors: 0,
  targeted_pct: 100,
  received_pct: 100,
  adoption: 1,
  failure_rate: 0,
  eligible_devices: 1,
  running,
  bytes_served: { full: 1, patch: 0, per_file: 0 },
});
const release = (id: string, version: string, at: string, running: number, over = {}): ReleaseWithStats =>
  ({ ...base, id, version, created_at: at, stats: stats(running), ...over }) as ReleaseWithStats;

/** README step 5: after a second release, `ota status` says what the device runs now. */
describe('ota status, by default', () => {
  it('shows the devices running each release, and a release the next one replaced as superseded', () => {
    const first = release('11111111-0000-4000-8000-000000000001', '1.0.0', '2026-11-28T10:00:00.000Z', 0);
    const second = release('22222222-0000-4000-8000-000000000002', '1.0.1', '2026-11-28T10:05:00.000Z', 1);
    const releases = [second, first];
    const superseded = supersededIds(releases);
    const rows = releases.map((r) => statusRowNarrow(r, superseded.has(r.id)));
    const at = (column: string) => STATUS_COLUMNS_NARROW.indexOf(column);
    expect(at('running')).toBeGreaterThan(0);
    expect(rows.map((r) => [r[1], r[at('state')], r[at('running')]])).toEqual([
      ['1.0.1', 'active', '1'],
      ['1.0.0', 'superseded', '0'],
    ]);
  });

  it('calls nothing superseded that a newer release does not replace for every device', () => {
    const old = release('11111111-0000-4000-8000-000000000001', '1.0.0', '2026-11-28T10:00:00.000Z', 5);
    const at = (over: object) =>
      supersededIds([
        old,
        release('22222222-0000-4000-8000-000000000002', '1.0.1', '2026-11-28T10:05:00.000Z', 1, over),
      ]);
    expect(at({ rollout_pct: 10 }).size).toBe(0);
    expect(at({ channel: 'staging' }).size).toBe(0);
    expect(at({ target_binary_range: '^2.0.0' }).size).toBe(0);
    expect(at({ paused: true }).size).toBe(0);
    expect(at({ active: false }).size).toBe(0);
    expect([...at({})]).toEqual([old.id]);
  });
});
