import { randomUUID } from 'node:crypto';
import type { Plan } from '../plans/plans.js';
import { onRollback } from '../platform/fake-transaction.js';
import type { Queryable } from '../platform/postgres.js';
import type { WorkspaceRow, WorkspacesStore } from './workspaces.store.js';

/** Workspaces in memory. Members are another feature's rows: tests set the count with setMembers. */
export class FakeWorkspacesStore implements WorkspacesStore {
  readonly rows = new Map<string, WorkspaceRow>();
  private readonly members = new Map<string, number>();

  /** A workspace with its owner as the one member (what the first sign-in creates). */
  add(input: Partial<WorkspaceRow> = {}): WorkspaceRow {
    const row: WorkspaceRow = { id: randomUUID(), name: 'Personal', plan: 'hobby', ...input };
    this.rows.set(row.id, row);
    this.members.set(row.id, 1);
    return row;
  }

  setMembers(workspaceId: string, count: number): void {
    this.members.set(workspaceId, count);
  }

  /** A member row was added (1) or removed (-1) by the members fake. */
  countMember(workspaceId: string, by: 1 | -1): void {
    this.members.set(workspaceId, (this.members.get(workspaceId) ?? 0) + by);
  }

  async find(workspaceId: string): Promise<WorkspaceRow | undefined> {
    const row = this.rows.get(workspaceId);
    return row && { ...row };
  }

  lock(_tx: Queryable, workspaceId: string): Promise<WorkspaceRow | undefined> {
    return this.find(workspaceId);
  }

  async setPlan(tx: Queryable, workspaceId: string, plan: Plan): Promise<void> {
    const row = this.rows.get(workspaceId);
    if (!row) return;
    const old = row.plan;
    row.plan = plan;
    onRollback(tx, () => {
      row.plan = old;
    });
  }

  async memberCount(workspaceId: string): Promise<number> {
    return this.members.get(workspaceId) ?? 0;
  }
}
