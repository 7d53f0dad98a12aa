import { describe, expect, it } from 'vitest';
import { pinnedModule, pinOutcome, servedChannel } from '../../../src/overrides/device-override.js';
import { BinaryRange } from '../../../src/releases/binary-range.js';
import type { AppRoute, RoutedRelease } from '../../../src/routing/routing.types.js';

const release = (over: Partial<RoutedRelease> = {}): RoutedRelease => ({
  id: '00000000-0000-4000-8000-000000000001',
  version: '1.0.0',
  rolloutPct: 0,
  fingerprint: null,
  binaryRange: null,
  mandatory: false,
  paused: true,
  notes: '',
  sha256: 'a'.repeat(64),
  size: 1,
  url: 'u',
  answers: new Map(),
  ...over,
});

const route = (overrides?: AppRoute['overrides']): AppRoute => ({
  appId: 'app',
  workspaceId: 'ws',
  plan: 'team',
  channels: new Map(),
  modules: new Set(),
  answers: new Map(),
  ...(overrides ? { overrides } : {}),
});

describe('device overrides as a check applies them', () => {
  const pinned = release();
  const r = route(
    new Map([
      ['tester', { kind: 'channel', channel: 'beta' }],
      ['support', { kind: 'release', moduleId: pinned.id, release: pinned }],
    ]),
  );

  it('serves a channel override from its channel, everyone else from the one asked', () => {
    expect(servedChannel(r, 'tester', 'production')).toBe('beta');
    expect(servedChannel(r, 'support', 'production')).toBe('production');
    expect(servedChannel(r, 'other', 'qa')).toBe('qa');
    expect(servedChannel(r, undefined, 'qa')).toBe('qa');
    expect(servedChannel(route(), 'tester', 'production')).toBe('production');
  });

  it('serves the default channel instead of a deleted one, asked or overridden', () => {
    const deleted: AppRoute = { ...r, deletedChannels: new Set(['pr-1', 'beta']) };
    expect(servedChannel(deleted, 'other', 'pr-1')).toBe('production');
    expect(servedChannel(deleted, undefined, 'pr-1')).toBe('production');
    expect(servedChannel(deleted, 'tester', 'qa')).toBe('production');
    expect(servedChannel(deleted, 'other', 'qa')).toBe('qa');
  });

  it('names the pinned module of a release override only', () => {
    expect(pinnedModule(r, 'support')).toBe(pinned.id);
    expect(pinnedModule(r, 'tester')).toBeUndefined();
    expect(pinnedModule(route(), 'support')).toBeUndefined();
  });

  it('serves a pinned release whatever its rollout or pause, only to a shell that can run it', () => {
    expect(pinOutcome(pinned, undefined, undefined)).toEqual({ served: pinned });
    const strict = release({ fingerprint: 'F', binaryRange: new BinaryRange('^2.0.0') });
    expect(pinOutcome(strict, 'F', '2.1.0')).toEqual({ served: strict });
    expect(pinOutcome(strict, 'G', '2.1.0')).toEqual({ served: null, reason: 'fingerprint_mismatch' });
    expect(pinOutcome(strict, 'F', '1.0.0')).toEqual({ served: null, reason: 'binary_range_mismatch' });
    expect(pinOutcome(strict, 'F', undefined)).toEqual({ served: null, reason: 'binary_range_mismatch' });
    expect(pinOutcome(null, 'F', '2.1.0')).toEqual({ served: null, reason: 'release_unavailable' });
  });
});
