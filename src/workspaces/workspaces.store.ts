import type { Plan } from '../plans/plans.js';
import type { Queryable } from '../platform/postgres.js';

export interface WorkspaceRow {
  id: string;
  name: string;
  plan: Plan;
}

/** Workspace records: the plan and the member count the plan gates ask about. */
export interface WorkspacesStore {
  /** A new workspace on the hobby plan; its owner becomes its member through the members store. */
  insert(tx: Queryable, name: string, ownerId: string): Promise<WorkspaceRow>;
  find(workspaceId: string, q?: Queryable): Promise<WorkspaceRow | undefined>;
  /**
   * Reads the workspace and holds it until the transaction ends, so a plan change and a gated action (an
   * invitation counted against the member cap) never interleave.
   */
  lock(tx: Queryable, workspaceId: string): Promise<WorkspaceRow | undefined>;
  setPlan(tx: Queryable, workspaceId: string, plan: Plan): Promise<void>;
  /** Members counted against the plan's cap: the owner, active members and pending invitations. */
  memberCount(workspaceId: string, q?: Queryable): Promise<number>;
}
