import { describe, expect, it } from 'vitest';
import {
  allowsSelfAssign,
  selfAssignableChannels,
  selfAssignedChannel,
} from '../../../src/channels/channel-rules.js';

describe('channel self-assignment rules', () => {
  const route = { selfAssignable: new Set(['beta', 'alpha']) };
  const none = {};

  it('production always allows it; another channel only when set', () => {
    expect(allowsSelfAssign(none, 'production')).toBe(true);
    expect(allowsSelfAssign(none, 'beta')).toBe(false);
    expect(allowsSelfAssign(route, 'beta')).toBe(true);
    expect(allowsSelfAssign(route, 'staging')).toBe(false);
  });

  it('serves a wanted channel only when it allows it, else the fallback', () => {
    expect(selfAssignedChannel(route, 'beta', 'production')).toBe('beta');
    expect(selfAssignedChannel(route, 'staging', 'production')).toBe('production');
    expect(selfAssignedChannel(route, '', 'production')).toBe('production');
    expect(selfAssignedChannel(route, undefined, 'qa')).toBe('qa');
    expect(selfAssignedChannel(none, 'production', 'qa')).toBe('production');
  });

  it('lists production first, then the others by name', () => {
    expect(selfAssignableChannels(route)).toEqual(['production', 'alpha', 'beta']);
    expect(selfAssignableChannels(none)).toEqual(['production']);
  });
});
