import { describe, expect, it } from 'vitest';
import type { AppRow } from '../../../src/apps/apps.store.js';
import { releasePushedData, rollbackData, rolloutChangedData } from '../../../src/releases/release-events.js';
import type { ReleaseRow } from '../../../src/releases/releases.store.js';

const app: AppRow = { id: 'app-1', workspace_id: 'ws-1', name: 'Shop', created_at: new Date(0) };
const release = (id: string, version: string, extra: Partial<ReleaseRow> = {}): ReleaseRow => ({
  id,
  seq: 1,
  workspace_id: 'ws-1',
  app_id: 'app-1',
  version,
  channel: 'production',
  rollout_pct: 25,
  mandatory: true,
  notes: 'notes',
  sha256: 'ab'.repeat(32),
  size: 10,
  fingerprint: 'fp',
  target_binary_range: null,
  active: true,
  rolled_back_at: null,
  created_at: new Date(0),
  capacitor_checksum: null,
  capacitor_session_key: null,
  capacitor_key_id: null,
  crc32: null,
  paused: false,
  promoted_from: null,
  promoted_from_channel: null,
  ...extra,
});

// The `data` fields of each event, exactly as the API contract lists them.
describe('webhook payloads', () => {
  it('release.pushed', () => {
    expect(releasePushedData(app, release('m1', '1.0'))).toEqual({
      app_id: 'app-1',
      app_name: 'Shop',
      module_id: 'm1',
      version: '1.0',
      channel: 'production',
      rollout_pct: 25,
      mandatory: true,
      sha256: 'ab'.repeat(32),
      notes: 'notes',
    });
  });

  it('release.pushed of a promoted release names where it came from', () => {
    const promoted = release('m2', '1.0', { promoted_from: 'm1', promoted_from_channel: 'staging' });
    expect(releasePushedData(app, promoted)).toMatchObject({
      module_id: 'm2',
      promoted_from: { module_id: 'm1', channel: 'staging' },
    });
  });

  it('rollout.changed', () => {
    expect(rolloutChangedData(app, release('m1', '1.0', { rollout_pct: 60 }), 25)).toEqual({
      app_id: 'app-1',
      app_name: 'Shop',
      module_id: 'm1',
      version: '1.0',
      channel: 'production',
      old_rollout_pct: 25,
      rollout_pct: 60,
      paused: false,
    });
  });

  it('rollout.changed of a pause: the same percentage, paused', () => {
    expect(rolloutChangedData(app, release('m1', '1.0', { paused: true }), 25)).toMatchObject({
      old_rollout_pct: 25,
      rollout_pct: 25,
      paused: true,
    });
  });

  it('rollback', () => {
    expect(rollbackData(app, release('m2', '2.0', { active: false }), release('m1', '1.0'))).toEqual({
      app_id: 'app-1',
      app_name: 'Shop',
      channel: 'production',
      rolled_back: { module_id: 'm2', version: '2.0' },
      active: { module_id: 'm1', version: '1.0' },
    });
  });
});
