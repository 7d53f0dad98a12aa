import { appendAudit } from '../audit/audit.writer.js';
import { type Principal, type Role, requireOwnWorkspace } from '../auth/principal.js';
import { requireFeature } from '../plans/plans.js';
import { conflict, notFound } from '../platform/errors.js';
import { type Db, PG_UNIQUE_VIOLATION, pgCode, transaction } from '../platform/postgres.js';
import type { WorkspacesStore } from '../workspaces/workspaces.store.js';
import { checkRemoval, checkRoleChange, requireMemberManager } from './member-policy.js';
import type { MemberRow, MembersStore } from './members.store.js';

export type InvitableRole = Exclude<Role, 'owner'>;

/**
 * Invitations, role changes and removals. Each change and its audit entry commit together; a refused
 * change writes nothing. Authentication reads membership on every call, so a role change or a removal
 * takes effect on the member's existing tokens at once.
 */
export class MembersService {
  constructor(
    private readonly db: Db,
    private readonly store: MembersStore,
    private readonly workspaces: WorkspacesStore,
  ) {}

  /** Every member (and API key) of the workspace may see who else belongs to it. */
  async list(principal: Principal, workspaceId: string): Promise<MemberRow[]> {
    requireOwnWorkspace(principal, workspaceId);
    return this.store.list(workspaceId);
  }

  /**
   * Owner or admin. An e-mail with an account becomes an active member at once; one without joins on its
   * first sign-in (the member id stays the same). Pending invitations count against the member cap.
   */
  async invite(
    principal: Principal,
    workspaceId: string,
    input: { email: string; role: InvitableRole },
  ): Promise<MemberRow> {
    requireOwnWorkspace(principal, workspaceId);
    requireMemberManager(principal, 'Inviting members');
    const email = input.email.trim().toLowerCase();
    try {
      return await transaction(this.db, async (tx) => {
        await this.store.lockEmail(tx, email);
        const workspace = await this.workspaces.lock(tx, workspaceId);
        if (!workspace) throw notFound('Workspace');
        if (await this.store.findByEmail(tx, workspaceId, email)) throw alreadyMember(email);
        requireFeature(workspace.plan, 'members', await this.workspaces.memberCount(workspaceId, tx));
        const member = await this.store.insert(tx, workspaceId, email, input.role);
        await appendAudit(tx, {
          workspaceId,
          actor: principal.actor,
          action: 'member.invite',
          details: { member_id: member.id, email, new: { role: member.role, status: member.status } },
        });
        return member;
      });
    } catch (err) {
      if (pgCode(err) === PG_UNIQUE_VIOLATION) throw alreadyMember(email);
      throw err;
    }
  }

  /** Owner or admin; see member-policy.ts for the owner role. Setting the current role records nothing. */
  async changeRole(
    principal: Principal,
    workspaceId: string,
    memberId: string,
    role: Role,
  ): Promise<MemberRow> {
    requireOwnWorkspace(principal, workspaceId);
    requireMemberManager(principal, 'Changing member roles');
    return transaction(this.db, async (tx) => {
      const member = await this.store.lock(tx, workspaceId, memberId);
      if (!member) throw notFound('Member');
      checkRoleChange(principal.role, member.role, role);
      if (member.role === role) return member;
      const updated = await this.store.setRole(tx, workspaceId, memberId, role);
      await appendAudit(tx, {
        workspaceId,
        actor: principal.actor,
        action: 'member.role_change',
        details: { member_id: memberId, email: member.email, old: { role: member.role }, new: { role } },
      });
      return updated;
    });
  }

  /** Owner or admin; the owner cannot be removed. Removing an invitation withdraws it. */
  async remove(principal: Principal, workspaceId: string, memberId: string): Promise<void> {
    requireOwnWorkspace(principal, workspaceId);
    requireMemberManager(principal, 'Removing members');
    await transaction(this.db, async (tx) => {
      const member = await this.store.lock(tx, workspaceId, memberId);
      if (!member) throw notFound('Member');
      checkRemoval(member.role);
      await this.store.remove(tx, workspaceId, memberId);
      await appendAudit(tx, {
        workspaceId,
        actor: principal.actor,
        action: 'member.remove',
        details: {
          member_id: memberId,
          email: member.email,
          old: { role: member.role, status: member.status },
        },
      });
    });
  }
}

function alreadyMember(email: string) {
  return conflict(`${email} is already a member of this workspace or invited to it.`, 'already_member');
}
