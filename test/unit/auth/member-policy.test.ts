import { describe, expect, it } from 'vitest';
import { type Principal, ROLES, type Role } from '../../../src/access/principal.js';
import { checkRemoval, checkRoleChange, requireMemberManager } from '../../../src/members/member-policy.js';
import { AppError } from '../../../src/platform/errors.js';

const principal = (role: Role): Principal => ({
  kind: 'user',
  workspaceId: 'ws',
  role,
  userId: 'u',
  email: 'a@example.com',
  apiKeyId: null,
  actor: 'a@example.com',
});

function outcome(fn: () => void): string {
  try {
    fn();
    return 'ok';
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return `${err.status} ${err.code}`;
  }
}

describe('member policy', () => {
  it('owners and admins manage members; developers and viewers do not', () => {
    expect(ROLES.map((r) => outcome(() => requireMemberManager(principal(r), 'x')))).toEqual([
      '403 forbidden',
      '403 forbidden',
      'ok',
      'ok',
    ]);
  });

  it('role changes between admin, developer and viewer are free for managers', () => {
    for (const caller of ['owner', 'admin'] as const) {
      for (const target of ['admin', 'developer', 'viewer'] as const) {
        for (const next of ['admin', 'developer', 'viewer'] as const) {
          expect(outcome(() => checkRoleChange(caller, target, next))).toBe('ok');
        }
      }
    }
  });

  it('the owner role: an admin is refused (403), the owner meets the one-owner rule (409)', () => {
    expect(outcome(() => checkRoleChange('admin', 'owner', 'viewer'))).toBe('403 owner_role_reserved');
    expect(outcome(() => checkRoleChange('admin', 'developer', 'owner'))).toBe('403 owner_role_reserved');
    expect(outcome(() => checkRoleChange('owner', 'owner', 'admin'))).toBe('409 owner_immutable');
    expect(outcome(() => checkRoleChange('owner', 'owner', 'owner'))).toBe('409 owner_immutable');
    expect(outcome(() => checkRoleChange('owner', 'viewer', 'owner'))).toBe('409 single_owner');
  });

  it('only the owner is protected from removal', () => {
    expect(ROLES.map((r) => outcome(() => checkRemoval(r)))).toEqual([
      'ok',
      'ok',
      'ok',
      '409 owner_immutable',
    ]);
  });
});
