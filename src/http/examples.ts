/**
 * Example values of the OpenAPI document's main operations, in one file so they tell one story: app
 * `Shop` pushes 1.4.2 to production at 10 %, widens it to 50 %, and rolls it back to 1.4.1.
 */
const APP_ID = '3f6d2c1a-8b7e-4f5a-9c2d-1e0b7a6c5d4e';
const MODULE_ID = '9b1e4d7c-2a3f-4c5b-8d6e-7f0a1b2c3d4e';
const PREVIOUS_ID = '5c2a9e1f-7d3b-4a6c-9e8d-0f1a2b3c4d5e';
const SHA = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

export const pushExample = {
  app_id: APP_ID,
  version: '1.4.2',
  sha256: SHA,
  channel: 'production',
  rollout_pct: 10,
  mandatory: false,
  notes: 'Fixes the checkout crash on Android 14',
  target_binary_range: '^1.4.0',
};

const release = (id: string, version: string, rollout_pct: number) => ({
  id,
  app_id: APP_ID,
  version,
  channel: 'production',
  rollout_pct,
  mandatory: false,
  notes: 'Fixes the checkout crash on Android 14',
  sha256: SHA,
  size: 1_843_200,
  fingerprint: null,
  target_binary_range: '^1.4.0',
  active: true,
  rolled_back_at: null,
  created_at: '2026-03-02T09:15:00.000Z',
  capacitor: null,
  paused: false,
  promoted_from: null,
});

export const releaseExample = release(MODULE_ID, '1.4.2', 10);

export const rolloutExample = { rollout_pct: 50 };

export const rollbackExample = {
  rolled_back: {
    ...release(MODULE_ID, '1.4.2', 50),
    active: false,
    rolled_back_at: '2026-03-02T11:40:00.000Z',
  },
  active: release(PREVIOUS_ID, '1.4.1', 100),
};

const STAGING_ID = '2e8f6a4c-1b3d-4e5f-8a9b-0c1d2e3f4a5b';

/** 1.4.2 was tested on staging first: promoted to production at 10 %, the same bytes. */
export const promoteExample = { channel: 'production', rollout_pct: 10 };

export const promotedExample = {
  ...release(MODULE_ID, '1.4.2', 10),
  promoted_from: { module_id: STAGING_ID, channel: 'staging' },
};

/** A tester's phone pinned to the beta channel, and a support case's device pinned to 1.4.1. */
export const overrideChannelExample = { channel: 'beta' };
export const overrideModuleExample = { module_id: PREVIOUS_ID };

export const overrideExample = {
  device_id: 'device-7c1f0a',
  channel: null,
  module_id: PREVIOUS_ID,
  created_at: '2026-03-02T12:05:00.000Z',
};

export const overrideListExample = {
  overrides: [
    {
      ...overrideExample,
      servable: false,
      reason: 'binary_range_mismatch' as const,
      last_check_at: '2026-03-02T12:09:41.000Z',
    },
    {
      device_id: 'qa-pixel-8',
      channel: 'beta',
      module_id: null,
      created_at: '2026-03-01T16:30:00.000Z',
      servable: null,
      reason: null,
      last_check_at: null,
    },
  ],
};

export const channelsExample = {
  channels: [
    { name: 'production', allow_device_self_assign: true },
    { name: 'beta', allow_device_self_assign: true },
    { name: 'staging', allow_device_self_assign: false },
  ],
};

export const checkExample = {
  app_id: APP_ID,
  device_id: 'device-7c1f0a',
  channel: 'production',
  current_module_id: PREVIOUS_ID,
  app_version: '1.4.0',
  platform: 'android',
};

export const updateCheckExample = {
  update: {
    module_id: MODULE_ID,
    version: '1.4.2',
    sha256: SHA,
    size: 1_843_200,
    url: `https://ota.example.com/api/v1/bundles/${SHA}`,
    mandatory: false,
    notes: 'Fixes the checkout crash on Android 14',
  },
};

export const statsExample = {
  series: [
    {
      ts: '2026-03-02T10:00:00.000Z',
      module_id: MODULE_ID,
      checks: 5120,
      downloads: 498,
      activations: 471,
      errors: 6,
      devices: 503,
    },
  ],
};

export const createWebhookExample = {
  url: 'https://hooks.example.com/ota',
  events: [
    'release.pushed' as const,
    'rollout.changed' as const,
    'rollback' as const,
    'error_spike' as const,
  ],
};

export const createdWebhookExample = {
  id: '0d4c8b2a-6e1f-4a3b-9c5d-7e8f9a0b1c2d',
  url: 'https://hooks.example.com/ota',
  events: ['release.pushed', 'rollout.changed', 'rollback', 'error_spike'],
  is_active: true,
  created_at: '2026-03-01T08:00:00.000Z',
  secret: 'whsec_5d2f8a1c9e7b4d6f0a3c8e1b7d9f2a4c',
};
