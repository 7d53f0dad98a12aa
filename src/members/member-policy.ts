import { type Principal, type Role, requireRole } from '../access/principal.js';
import { conflict, forbidden } from '../platform/errors.js';

/**
 * Who may change whom. Owners and admins manage members; the owner role is held by exactly one member
 * and never moves through these endpoints: it cannot be granted, changed or removed. An admin who
 * tries is refused for lack of rights (403); the owner meets the one-owner rule itself (409).
 */
export function requireMemberManager(principal: Principal, what: string): void {
  requireRole(principal, 'admin', what);
}

export function checkRoleChange(caller: Role, target: Role, next: Role): void {
  const touchesOwner = target === 'owner' || next === 'owner';
  if (!touchesOwner) return;
  if (caller !== 'owner') {
    throw forbidden(
      'Only the owner role can touch the owner role; an admin may not grant or change it.',
      'owner_role_reserved',
    );
  }
  if (target === 'owner') {
    throw conflict(
      'The workspace owner cannot be demoted; a workspace always has its owner.',
      'owner_immutable',
    );
  }
  throw conflict('A workspace has exactly one owner; the owner role cannot be granted.', 'single_owner');
}

export function checkRemoval(target: Role): void {
  if (target === 'owner') {
    throw conflict('The workspace owner cannot be removed.', 'owner_immutable');
  }
}
