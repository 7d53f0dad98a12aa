import { describe, expect, it } from 'vitest';
import { roleAtLeast } from '../../../src/access/principal.js';
import { hashPassword, verifyPassword } from '../../../src/auth/passwords.js';

describe('password hashing', () => {
  it('verifies the right password only, with a fresh salt each time', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horsf', a)).toBe(false);
    expect(await verifyPassword('correct horse', 'plain-text')).toBe(false);
  });
});

describe('role order', () => {
  it('ranks viewer < developer < admin < owner', () => {
    expect(roleAtLeast('owner', 'admin')).toBe(true);
    expect(roleAtLeast('admin', 'admin')).toBe(true);
    expect(roleAtLeast('developer', 'admin')).toBe(false);
    expect(roleAtLeast('viewer', 'developer')).toBe(false);
  });
});
