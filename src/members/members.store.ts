import type { Role } from '../access/principal.js';
import type { Queryable } from '../platform/postgres.js';

export type MemberStatus = 'active' | 'invited';

export interface MemberRow {
  id: string;
  email: string;
  role: Role;
  status: MemberStatus;
  created_at: Date;
  /** The account, once the invitee accepted; never shown (API keys' makers are users). */
  user_id: string | null;
}

/** Member rows: one per invited e-mail, bound to a user when the invitee accepts (invitations/). */
export interface MembersStore {
  /** Owner first, then in the order they were invited. */
  list(workspaceId: string): Promise<MemberRow[]>;
  find(workspaceId: string, memberId: string, q?: Queryable): Promise<MemberRow | undefined>;
  /** Locks the row until the transaction ends, so two changes to one member apply one after the other. */
  lock(tx: Queryable, workspaceId: string, memberId: string): Promise<MemberRow | undefined>;
  /**
   * The user's membership, share-locked until the transaction ends: a removal or role change of it waits
   * (and one under way is waited for), so what is decided on it still holds at commit.
   */
  lockMembership(
    tx: Queryable,
    workspaceId: string,
    userId: string,
  ): Promise<{ id: string; role: Role } | undefined>;
  findByEmail(tx: Queryable, workspaceId: string, email: string): Promise<MemberRow | undefined>;
  /**
   * A new invited member: no user until the invitee accepts its invitation. A second row for one e-mail
   * of the workspace fails with the unique-violation code (23505).
   */
  insert(tx: Queryable, workspaceId: string, email: string, role: Role): Promise<MemberRow>;
  /** The owner of a new workspace, an active member from the start (counted with the workspace). */
  insertOwner(tx: Queryable, workspaceId: string, email: string, userId: string): Promise<MemberRow>;
  /** Binds an invited member to the user who accepted; undefined when it is not (or no longer) invited. */
  activate(
    tx: Queryable,
    workspaceId: string,
    memberId: string,
    userId: string,
  ): Promise<MemberRow | undefined>;
  setRole(tx: Queryable, workspaceId: string, memberId: string, role: Role): Promise<MemberRow>;
  remove(tx: Queryable, workspaceId: string, memberId: string): Promise<void>;
}
