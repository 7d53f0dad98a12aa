import type { Plan } from '../plans/plans.js';
import type { Queryable } from '../platform/postgres.js';

export interface WorkspaceRow {
  id: string;
  name: string;
  plan: Plan;
}

/** Workspace records: the plan and the member count the plan gates ask about. */
export class WorkspacesStore {
  constructor(private readonly db: Queryable) {}

  async find(workspaceId: string, q: Queryable = this.db): Promise<WorkspaceRow | undefined> {
    const { rows } = await q.query<WorkspaceRow>('SELECT id, name, plan FROM workspaces WHERE id = $1', [
      workspaceId,
    ]);
    return rows[0];
  }

  /**
   * Reads the workspace and locks its row until the transaction ends, so a plan change and a gated action
   * (an invitation counted against the member cap) never interleave.
   */
  async lock(tx: Queryable, workspaceId: string): Promise<WorkspaceRow | undefined> {
    const { rows } = await tx.query<WorkspaceRow>(
      'SELECT id, name, plan FROM workspaces WHERE id = $1 FOR UPDATE',
      [workspaceId],
    );
    return rows[0];
  }

  async setPlan(tx: Queryable, workspaceId: string, plan: Plan): Promise<void> {
    await tx.query('UPDATE workspaces SET plan = $2 WHERE id = $1', [workspaceId, plan]);
  }

  /** Members counted against the plan's cap: the owner, active members and pending invitations. */
  async memberCount(workspaceId: string, q: Queryable = this.db): Promise<number> {
    const { rows } = await q.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM members WHERE workspace_id = $1',
      [workspaceId],
    );
    return rows[0]?.n ?? 0;
  }
}
