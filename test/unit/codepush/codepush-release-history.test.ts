import { describe, expect, it } from 'vitest';
import { ChannelHistory, type HistoryRow } from '../../../src/codepush/release-history.js';

let seq = 0;
function row(version: string, extra: Partial<HistoryRow> = {}): HistoryRow {
  seq += 1;
  return {
    id: `id-${version}`,
    version,
    seq,
    active: true,
    mandatory: false,
    fingerprint: null,
    target_binary_range: null,
    ...extra,
  };
}

describe('ChannelHistory', () => {
  const history = new ChannelHistory([
    row('v1'),
    row('v2', { mandatory: true }),
    row('v3', { mandatory: true, active: false }),
    row('v4', { mandatory: true, target_binary_range: '^2.0.0' }),
    row('v5', { mandatory: true, fingerprint: 'shell-1' }),
    row('v6'),
  ]);

  it('names every release by label, rolled back ones included', () => {
    expect(history.releaseOf('v3')).toBe('id-v3');
    expect(history.releaseOf('v9')).toBeUndefined();
  });

  it('finds an active mandatory release between the one running and the one offered', () => {
    expect(history.skipsMandatory('v6', 'v1', '1.0.0')).toBe(true); // v2
    expect(history.skipsMandatory('v6', 'v2', '1.0.0')).toBe(false); // v3 rolled back, v4 other natives, v5 fingerprint
    expect(history.skipsMandatory('v6', 'v2', '2.1.0')).toBe(true); // v4 fits 2.1.0
    expect(history.skipsMandatory('v6', 'unknown', '1.0.0')).toBe(true); // older than every release
    expect(history.skipsMandatory('v2', 'v1', '1.0.0')).toBe(false); // the offered one itself is not skipped
    expect(history.skipsMandatory('gone', 'v1', '1.0.0')).toBe(false);
  });
});
