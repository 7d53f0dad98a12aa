import { describe, expect, it } from 'vitest';
import { newDeploymentKey } from '../../../src/codepush/deployment-keys.service.js';

describe('new deployment keys', () => {
  it('are 32 characters of base64url that never start with - or _, so a command line reads them as arguments', () => {
    // One plain base64url key in 32 starts with - or _; 5,000 keys find one almost surely.
    const keys = Array.from({ length: 5000 }, () => newDeploymentKey());
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9][A-Za-z0-9_-]{31}$/);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
