import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PLANS, type Plan } from '../../../src/plans/plans.js';
import { AppError } from '../../../src/platform/errors.js';
import {
  isChannelName,
  requirePushAllowed,
  requireRolloutChangeAllowed,
  VERSION_PATTERN,
} from '../../../src/releases/releases.rules.js';

function refusal(fn: () => void): AppError | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
}

const channelChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789._-'.split(''));
const channel = fc.oneof(
  fc.constant('production'),
  fc.constantFrom('canary', 'beta', 'staging'),
  fc.array(channelChar, { minLength: 1, maxLength: 64 }).map((c) => c.join('')),
);
const pct = fc.oneof(fc.constant(100), fc.constant(0), fc.double({ min: 0, max: 100, noNaN: true }));

describe('channel names', () => {
  it('accepts 1-64 characters of [a-z0-9._-]', () => {
    fc.assert(
      fc.property(channel, (c) => {
        expect(isChannelName(c)).toBe(true);
      }),
    );
    for (const ok of ['production', 'canary', 'beta-2', 'qa.eu', 'a', 'x'.repeat(64)]) {
      expect(isChannelName(ok)).toBe(true);
    }
  });

  it('refuses empty, long, upper-case, spaced and non-ASCII names', () => {
    for (const bad of ['', 'x'.repeat(65), 'Beta', 'PRODUCTION', 'has space', 'a/b', 'ünïcode', 'tab\t']) {
      expect(isChannelName(bad)).toBe(false);
    }
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (s) => {
        fc.pre(/[^a-z0-9._-]/.test(s));
        expect(isChannelName(s)).toBe(false);
      }),
    );
  });
});

describe('versions', () => {
  const re = new RegExp(VERSION_PATTERN);
  it('are free text of 1-64 characters without control characters', () => {
    for (const ok of ['1.0.0', '2026.11.22-0512', 'v2 beta', 'x'.repeat(64), 'версия 1'])
      expect(re.test(ok)).toBe(true);
    for (const bad of ['', 'x'.repeat(65), 'a\nb', 'a\u0000b', 'a\u007fb']) expect(re.test(bad)).toBe(false);
  });
});

describe('push gates', () => {
  it('refuse exactly the paid pushes on hobby, and nothing on pro or team', () => {
    fc.assert(
      fc.property(fc.constantFrom<Plan>(...PLANS), channel, pct, (plan, ch, p) => {
        const err = refusal(() => requirePushAllowed(plan, { channel: ch, rollout_pct: p }));
        const paid = p !== 100 || ch !== 'production';
        if (plan === 'hobby' && paid) {
          expect(err?.status).toBe(402);
          expect(err?.code).toBe('plan_upgrade_required');
          expect(err?.extra).toMatchObject({ plan: 'hobby', required_plan: 'pro' });
        } else {
          expect(err).toBeUndefined();
        }
      }),
    );
  });

  it('name the feature that is missing', () => {
    const staged = refusal(() => requirePushAllowed('hobby', { channel: 'production', rollout_pct: 50 }));
    expect(staged?.detail).toMatch(/^Staged and A\/B rollouts/);
    const extra = refusal(() => requirePushAllowed('hobby', { channel: 'beta', rollout_pct: 100 }));
    expect(extra?.detail).toMatch(/^Channels other than production/);
  });
});

describe('rollout change gate', () => {
  it('refuses any change on hobby and none on pro or team', () => {
    expect(refusal(() => requireRolloutChangeAllowed('hobby'))?.status).toBe(402);
    expect(refusal(() => requireRolloutChangeAllowed('pro'))).toBeUndefined();
    expect(refusal(() => requireRolloutChangeAllowed('team'))).toBeUndefined();
  });
});
