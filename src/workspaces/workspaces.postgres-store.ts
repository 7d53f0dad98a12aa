import type { Plan } from '../plans/plans.js';
import type { Queryable } from '../platform/postgres.js';
import type { WorkspaceRow, WorkspacesStore } from './workspaces.store.js';

export class PostgresWorkspacesStore implements WorkspacesStore {
  constructor(private readonly db: Queryable) {}

  async insert(tx: Queryable, name: string, ownerId: string): Promise<WorkspaceRow> {
    const { rows } = await tx.query<WorkspaceRow>(
      'INSERT INTO workspaces (name, owner_id) VALUES ($1, $2) RETURNING id, name, plan',
      [name, ownerId],
    );
    return rows[0]!;
  }

  async find(workspaceId: string, q: Queryable = this.db): Promise<WorkspaceRow | undefined> {
    const { rows } = await q.query<WorkspaceRow>('SELECT id, name, plan FROM workspaces WHERE id = $1', [
      workspaceId,
    ]);
    return rows[0];
  }

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

  async memberCount(workspaceId: string, q: Queryable = this.db): Promise<number> {
    const { rows } = await q.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM members WHERE workspace_id = $1',
      [workspaceId],
    );
    return rows[0]?.n ?? 0;
  }
}
