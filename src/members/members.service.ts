import { auditActor, type Principal, type Role, requireOwnWorkspace } from '../access/principal.js';
import { auditKeysRevoked } from '../api-keys/api-key-audit.js';
import type { ApiKeysStore } from '../api-keys/api-keys.store.js';
import type { AuditStore } from '../audit/audit.store.js';
import type { InvitationsService, IssuedInvitation } from '../invitations/invitations.service.js';
import { requireFeature } from '../plans/plans.js';
import { conflict, notFound } from '../platform/errors.js';
import { PG_UNIQUE_VIOLATION, pgCode, type Transactional } from '../platform/postgres.js';
import type { WorkspacesStore } from '../workspaces/workspaces.store.js';
import { checkRemoval, checkRoleChange, requireMemberManager } from './member-policy.js';
import type { MemberRow, MembersStore } from './members.store.js';

export type InvitableRole = Exclude<Role, 'owner'>;

export interface InvitedMember extends MemberRow {
  invitation: IssuedInvitation & { emailed: boolean };
}

/** The stores the members service works on. */
export interface MembersStores {
  members: MembersStore;
  workspaces: WorkspacesStore;
  apiKeys: ApiKeysStore;
  audit: AuditStore;
  transaction: Transactional;
}

/** `invitations` issues the token inside the invitation's transaction and e-mails it after the commit. */
export function createMembersService(
  stores: MembersStores,
  options: { invitations: InvitationsService },
): MembersService {
  return new MembersService(stores, options.invitations);
}

/**
 * Invitations, role changes and removals. Each change and its audit entry commit together; a refused
 * change writes nothing. Authentication reads membership on every call, so a role change or a removal
 * takes effect on the member's existing tokens at once.
 */
export class MembersService {
  private readonly store: MembersStore;

  constructor(
    private readonly stores: MembersStores,
    private readonly invitations: InvitationsService,
  ) {
    this.store = stores.members;
  }

  /** Every member (and API key) of the workspace may see who else belongs to it. */
  async list(principal: Principal, workspaceId: string): Promise<MemberRow[]> {
    requireOwnWorkspace(principal, workspaceId);
    return this.store.list(workspaceId);
  }

  /**
   * Owner or admin. The member is `invited` until the invitee, signed in with that e-mail, accepts the
   * token answered here (and e-mailed, with SMTP_URL). Inviting an e-mail that is still invited issues a
   * new token with the role given and voids the old one; an active member is a 409. Pending invitations
   * count against the member cap.
   */
  async invite(
    principal: Principal,
    workspaceId: string,
    input: { email: string; role: InvitableRole },
  ): Promise<InvitedMember> {
    requireOwnWorkspace(principal, workspaceId);
    requireMemberManager(principal, 'Inviting members');
    const email = input.email.trim().toLowerCase();
    const created = await this.stores
      .transaction(async (tx) => {
        const workspace = await this.stores.workspaces.lock(tx, workspaceId);
        if (!workspace) throw notFound('Workspace');
        const existing = await this.store.findByEmail(tx, workspaceId, email);
        if (existing?.status === 'active') throw alreadyMember(email);
        let member: MemberRow;
        if (existing) {
          member =
            existing.role === input.role
              ? existing
              : await this.store.setRole(tx, workspaceId, existing.id, input.role);
        } else {
          requireFeature(
            workspace.plan,
            'members',
            await this.stores.workspaces.memberCount(workspaceId, tx),
          );
          member = await this.store.insert(tx, workspaceId, email, input.role);
        }
        const invitation = await this.invitations.issue(tx, {
          workspaceId,
          memberId: member.id,
          email,
          createdBy: principal.userId,
        });
        await this.stores.audit.append(tx, {
          workspaceId,
          ...auditActor(principal),
          action: 'member.invite',
          details: {
            member_id: member.id,
            email,
            new: { role: member.role, status: member.status },
            ...(existing ? { reinvite: true } : {}),
          },
        });
        return { member, invitation, workspaceName: workspace.name };
      })
      .catch((err: unknown) => {
        // Two first invitations of one e-mail at once: the workspace lock orders them, the index backs it.
        if (pgCode(err) === PG_UNIQUE_VIOLATION) throw alreadyMember(email);
        throw err;
      });
    const { member, invitation, workspaceName } = created;
    const emailed = await this.invitations.send(invitation, {
      to: email,
      workspaceName,
      role: member.role,
      invitedBy: principal.email,
    });
    return { ...member, invitation: { ...invitation, emailed } };
  }

  /**
   * Owner or admin; see member-policy.ts for the owner role. Setting the current role records nothing.
   * The member's API keys that rank above the new role are lowered to it in the same transaction (a later
   * promotion does not raise them again).
   */
  async changeRole(
    principal: Principal,
    workspaceId: string,
    memberId: string,
    role: Role,
  ): Promise<MemberRow> {
    requireOwnWorkspace(principal, workspaceId);
    requireMemberManager(principal, 'Changing member roles');
    return this.stores.transaction(async (tx) => {
      const member = await this.store.lock(tx, workspaceId, memberId);
      if (!member) throw notFound('Member');
      checkRoleChange(principal.role, member.role, role);
      if (member.role === role) return member;
      const updated = await this.store.setRole(tx, workspaceId, memberId, role);
      const capped =
        member.user_id && role !== 'owner'
          ? await this.stores.apiKeys.capMadeBy(tx, workspaceId, member.user_id, role)
          : [];
      await this.stores.audit.append(tx, {
        workspaceId,
        ...auditActor(principal),
        action: 'member.role_change',
        details: {
          member_id: memberId,
          email: member.email,
          old: { role: member.role },
          new: { role },
          capped_api_keys: capped,
        },
      });
      return updated;
    });
  }

  /**
   * Owner or admin; the owner cannot be removed. Removing an invitation withdraws it. Every API key the
   * member made is revoked in the same transaction.
   */
  async remove(principal: Principal, workspaceId: string, memberId: string): Promise<void> {
    requireOwnWorkspace(principal, workspaceId);
    requireMemberManager(principal, 'Removing members');
    await this.stores.transaction(async (tx) => {
      const member = await this.store.lock(tx, workspaceId, memberId);
      if (!member) throw notFound('Member');
      checkRemoval(member.role);
      await this.store.remove(tx, workspaceId, memberId);
      const revoked = member.user_id
        ? await this.stores.apiKeys.revokeMadeBy(tx, workspaceId, member.user_id)
        : [];
      await auditKeysRevoked(this.stores.audit, tx, auditActor(principal), revoked, 'member_removed');
      await this.stores.audit.append(tx, {
        workspaceId,
        ...auditActor(principal),
        action: 'member.remove',
        details: {
          member_id: memberId,
          email: member.email,
          old: { role: member.role, status: member.status },
          revoked_api_keys: revoked.map((k) => k.id),
        },
      });
    });
  }
}

function alreadyMember(email: string) {
  return conflict(`${email} is already a member of this workspace or invited to it.`, 'already_member');
}
