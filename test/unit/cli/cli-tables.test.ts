import { describe, expect, it } from 'vitest';
import { actorLabel, auditTable } from '../../../cli/audit-report.js';
import { megabytes, transferText } from '../../../cli/progress.js';
import { matchPrefix } from '../../../cli/refs.js';
import { stateOf, statusNotes, statusRowNarrow } from '../../../cli/status-report.js';
import type { AuditEntry, ReleaseWithStats } from '../../../client/types.js';

function release(targeted: number, received: number): ReleaseWithStats {
  return {
    id: '3f9c2a41-0000-4000-8000-000000000001',
    app_id: 'a',
    version: '2026.11.22.0613-hotfix-for-the-login-screen',
    channel: 'production',
    rollout_pct: targeted,
    mandatory: false,
    notes: '',
    sha256: 'x',
    size: 1,
    fingerprint: null,
    target_binary_range: null,
    active: true,
    rolled_back_at: null,
    created_at: '2026-11-22T06:13:00.000Z',
    capacitor: null,
    paused: false,
    promoted_from: null,
    stats: {
      downloads: 10,
      activations: 9,
      errors: 0,
      targeted_pct: targeted,
      received_pct: received,
      adoption: 0.9,
      failure_rate: 0,
      eligible_devices: 30,
      running: 40,
      bytes_served: { full: 2_000_000, patch: 12_345, per_file: 4_096 },
    },
  };
}

describe('upload progress', () => {
  it('shows megabytes, speed and time left', () => {
    expect(transferText(0, 4 * 1024 * 1024, 0)).toBe('0.0 / 4.0 MB');
    expect(transferText(1024 * 1024, 4 * 1024 * 1024, 500)).toBe('1.0 / 4.0 MB, 2.0 MB/s, 2 s left');
    expect(transferText(4 * 1024 * 1024, 4 * 1024 * 1024, 2000)).toBe('4.0 / 4.0 MB, 2.0 MB/s, done');
    expect(transferText(1024, 600 * 1024 * 1024, 1000)).toContain('min');
    expect(megabytes(20_000)).toBe('0.02 MB');
  });
});

describe('the status table', () => {
  it('marks a received % above the rollout and explains it under the table, with the stats time', () => {
    const row = statusRowNarrow(release(30, 51));
    expect(row[0]).toBe('3f9c2a41');
    expect(row[1]).toBe('2026.11.22.061…');
    expect(row[5]).toBe('51.0 %*');
    expect(statusRowNarrow(release(30, 20))[5]).toBe('20.0 %');
    const notes = statusNotes([release(30, 51)], '2026-11-22T06:14:05.123Z');
    expect(notes[0]).toBe(
      '* received counts devices within the rollout: 51.0 % of the 30 % targeted, about 15.3 % of the channel.',
    );
    expect(notes[1]).toMatch(/^Stats as of 2026-11-22 06:14:05Z/);
    expect(statusNotes([release(30, 20)], undefined)).toEqual([]);
  });

  it('shows a paused release as paused, says what that means and how to resume it', () => {
    const paused = { ...release(30, 20), paused: true };
    expect(statusRowNarrow(paused)[3]).toBe('paused');
    expect(statusRowNarrow({ ...paused, active: false })[3]).toBe('rolled back');
    expect(stateOf(release(30, 20))).toBe('active');
    expect(statusNotes([release(30, 20), paused], undefined)).toEqual([
      `paused: offered to no new device; devices that run it keep it. Resume with: ota resume ${paused.id}`,
    ]);
  });
});

describe('the audit table', () => {
  const entry = (actor: string, details: Record<string, unknown>): AuditEntry => ({
    id: 'e',
    actor,
    action: 'module.push',
    workspace_id: 'w',
    app_id: 'a1b2c3d4-0000-4000-8000-000000000000',
    details,
    created_at: '2026-11-22T06:13:00.000Z',
  });
  const key = { id: 'k', name: 'CI deploys', created_by: { id: 'u', email: 'ana@example.com' } };

  it('names the key and its maker for api-key entries', () => {
    expect(actorLabel(entry('api-key', { api_key: key }))).toBe(
      'api-key (CI deploys, created by ana@example.com)',
    );
    expect(actorLabel(entry('api-key', { api_key: { ...key, created_by: null } }))).toBe(
      'api-key (CI deploys)',
    );
    expect(actorLabel(entry('api-key', {}))).toBe('api-key');
    expect(actorLabel(entry('ana@example.com', {}))).toBe('ana@example.com');
  });

  it('clips details so the narrow table fits the terminal, and leaves api_key to the actor column', () => {
    const long = { module_id: 'x'.repeat(300), api_key: key };
    const { head, rows } = auditTable([entry('api-key', long)], 100, false);
    expect(head).toEqual(['time', 'actor', 'action', 'details']);
    const used = rows[0]!.reduce((sum, cell) => sum + [...cell].length + 3, 1);
    expect(used).toBeLessThanOrEqual(100);
    expect(rows[0]![3]).not.toContain('api_key');
    expect(auditTable([entry('api-key', long)], 100, true).head).toContain('app');
  });
});

describe('id prefixes', () => {
  const items = [{ id: 'abcdef01-0000' }, { id: 'abcdef02-0000' }, { id: '12345678-0000' }];
  it('takes a unique prefix of 6+ characters and lists the matches of an ambiguous one', () => {
    expect(matchPrefix(items, '123456', 'webhook').id).toBe('12345678-0000');
    expect(matchPrefix(items, 'ABCDEF02', 'webhook').id).toBe('abcdef02-0000');
    expect(() => matchPrefix(items, 'abcdef', 'webhook')).toThrow(
      /matches 2 webhooks[\s\S]*abcdef01[\s\S]*abcdef02/,
    );
    expect(() => matchPrefix(items, 'abc', 'webhook')).toThrow(/at least 6/);
    expect(() => matchPrefix(items, 'ffffff', 'webhook')).toThrow(/No webhook id starts with/);
  });
});
