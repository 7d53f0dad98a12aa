import type { AuditStore } from '../audit/audit.store.js';
import type { SignupMode } from '../config/accounts.js';
import type { EmailVerificationService } from '../email-verification/email-verification.service.js';
import type { InvitationsStore } from '../invitations/invitations.store.js';
import type { MembersStore } from '../members/members.store.js';
import type { Transactional } from '../platform/postgres.js';
import type { WorkspacesStore } from '../workspaces/workspaces.store.js';
import type { AuthStore, UserRow } from './auth.store.js';

/**
 * A first sign-in's account: the user, its personal workspace (plan hobby) with the user as owner, the
 * e-mail check asked for, and the audit entries, in one transaction. Answers 'refused' where SIGNUP is
 * invite-only and the e-mail has no open invitation (read in the same transaction, so as of then), and
 * undefined when another first sign-in for this e-mail made the account first.
 */
export async function createAccount(
  stores: {
    auth: AuthStore;
    invitations: Pick<InvitationsStore, 'hasOpen'>;
    workspaces: WorkspacesStore;
    members: MembersStore;
    audit: AuditStore;
    transaction: Transactional;
  },
  email: string,
  passwordHash: string,
  options: {
    signup: SignupMode;
    emailVerification?: Pick<EmailVerificationService, 'accountMade'> | undefined;
  },
): Promise<{ user: UserRow; workspaceId: string } | 'refused' | undefined> {
  return stores.transaction(async (tx) => {
    // Checked in the transaction that makes the account, so it reads the invitation as of then.
    if (options.signup === 'invite-only' && !(await stores.invitations.hasOpen(tx, email))) return 'refused';
    const user = await stores.auth.insertUser(tx, email, passwordHash);
    if (!user) return undefined; // another first sign-in for this e-mail won the race
    // Invitations are not claimed here: signing in proves nothing about the address (invitations/).
    const { id: workspaceId } = await stores.workspaces.insert(tx, `${user.email}'s workspace`, user.id);
    await stores.members.insertOwner(tx, workspaceId, user.email, user.id);
    await options.emailVerification?.accountMade(tx, user.id);
    const actor = user.email;
    await stores.audit.append(tx, {
      workspaceId,
      actor,
      action: 'account.create',
      details: { user_id: user.id, email },
    });
    await stores.audit.append(tx, {
      workspaceId,
      actor,
      action: 'login',
      details: { user_id: user.id },
    });
    return { user, workspaceId };
  });
}
