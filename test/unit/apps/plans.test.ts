import { describe, expect, it } from 'vitest';
import { CAPABILITIES, planUnlocking, requireFeature, upgradeMessage } from '../../../src/plans/plans.js';
import { AppError } from '../../../src/platform/errors.js';

describe('plan capabilities (specification, section 2)', () => {
  it('matches the capability table', () => {
    expect(CAPABILITIES.hobby).toMatchObject({
      deviceCap: 100,
      memberCap: 1,
      stagedRollouts: false,
      extraChannels: false,
      auditLog: false,
    });
    expect(CAPABILITIES.pro).toMatchObject({
      deviceCap: 10_000,
      memberCap: null,
      stagedRollouts: true,
      extraChannels: true,
      auditLog: false,
    });
    expect(CAPABILITIES.team).toMatchObject({
      deviceCap: null,
      memberCap: null,
      stagedRollouts: true,
      extraChannels: true,
      auditLog: true,
    });
  });

  it('names the cheapest plan that unlocks each gated feature', () => {
    expect(planUnlocking('stagedRollouts')).toBe('pro');
    expect(planUnlocking('extraChannels')).toBe('pro');
    expect(planUnlocking('members')).toBe('pro');
    expect(planUnlocking('auditLog')).toBe('team');
  });

  it('throws a 402 with a plain-language message naming the plan', () => {
    try {
      requireFeature('hobby', 'stagedRollouts');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(402);
      expect((err as AppError).detail).toContain('Startup (pro)');
    }
    expect(() => requireFeature('pro', 'stagedRollouts')).not.toThrow();
    expect(() => requireFeature('pro', 'auditLog')).toThrow(/Enterprise \(team\)/);
    expect(() => requireFeature('hobby', 'members', 1)).toThrow(/allows 1 member/);
    expect(() => requireFeature('pro', 'members', 500)).not.toThrow();
  });

  it('agrees in number and ends with the exact way to upgrade', () => {
    expect(upgradeMessage('hobby', 'extraChannels')).toMatch(/^Channels other than production need the /);
    expect(upgradeMessage('hobby', 'stagedRollouts')).toMatch(/rollouts \(.*\) need the Startup/);
    expect(upgradeMessage('hobby', 'auditLog')).toMatch(
      /^The audit log and activity feed need the Enterprise/,
    );
    expect(upgradeMessage('hobby', 'members')).toMatch(/^More team members need /);
    for (const [plan, feature, target] of [
      ['hobby', 'extraChannels', 'pro'],
      ['hobby', 'auditLog', 'team'],
      ['pro', 'auditLog', 'team'],
      ['hobby', 'members', 'pro'],
    ] as const) {
      expect(upgradeMessage(plan, feature)).toMatch(
        new RegExp(`Upgrade with \`ota plan set ${target}\` or in the console under Plan\\.$`),
      );
    }
  });
});
