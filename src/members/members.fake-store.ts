import { randomUUID } from 'node:crypto';
import type { Role } from '../access/principal.js';
import { onRollback } from '../platform/fake-transaction.js';
import { PG_UNIQUE_VIOLATION, type Queryable } from '../platform/postgres.js';
import type { FakeWorkspacesStore } from '../workspaces/workspaces.fake-store.js';
import type { MemberRow, MembersStore } from './members.store.js';

interface Stored extends MemberRow {
  workspace_id: string;
}

/**
 * Members in memory. An insert or removal moves the workspace fake's member count with it, so the plan's
 * member cap sees what Postgres would count.
 */
export class FakeMembersStore implements MembersStore {
  readonly rows: Stored[] = [];

  constructor(
    private readonly workspaces: FakeWorkspacesStore,
    private readonly now: () => number = Date.now,
  ) {}

  async insertOwner(tx: Queryable, workspaceId: string, email: string, userId: string): Promise<MemberRow> {
    const owner = this.addActive(workspaceId, email, 'owner', userId);
    onRollback(tx, () =>
      this.rows.splice(
        this.rows.findIndex((m) => m.id === owner.id),
        1,
      ),
    );
    return owner;
  }

  /** A member as it is after acceptance (or the owner made at sign-up); counted by the caller's setup. */
  addActive(workspaceId: string, email: string, role: Role, userId: string): MemberRow {
    const row: Stored = {
      id: randomUUID(),
      workspace_id: workspaceId,
      email,
      role,
      status: 'active',
      created_at: new Date(this.now()),
      user_id: userId,
    };
    this.rows.push(row);
    return strip(row);
  }

  /** The user's role in the workspace; undefined when not (or no longer) a member. */
  roleOf(workspaceId: string, userId: string): Role | undefined {
    return this.rows.find((r) => r.workspace_id === workspaceId && r.user_id === userId)?.role;
  }

  async list(workspaceId: string): Promise<MemberRow[]> {
    return this.rows
      .filter((r) => r.workspace_id === workspaceId)
      .sort(
        (a, b) =>
          Number(b.role === 'owner') - Number(a.role === 'owner') ||
          a.created_at.getTime() - b.created_at.getTime() ||
          a.id.localeCompare(b.id),
      )
      .map(strip);
  }

  async find(workspaceId: string, memberId: string): Promise<MemberRow | undefined> {
    const row = this.row(workspaceId, memberId);
    return row && strip(row);
  }

  lock(_tx: Queryable, workspaceId: string, memberId: string): Promise<MemberRow | undefined> {
    return this.find(workspaceId, memberId);
  }

  async lockMembership(
    _tx: Queryable,
    workspaceId: string,
    userId: string,
  ): Promise<{ id: string; role: Role } | undefined> {
    const row = this.rows.find((r) => r.workspace_id === workspaceId && r.user_id === userId);
    return row && { id: row.id, role: row.role };
  }

  async findByEmail(_tx: Queryable, workspaceId: string, email: string): Promise<MemberRow | undefined> {
    const row = this.rows.find((r) => r.workspace_id === workspaceId && r.email === email);
    return row && strip(row);
  }

  async insert(tx: Queryable, workspaceId: string, email: string, role: Role): Promise<MemberRow> {
    if (this.rows.some((r) => r.workspace_id === workspaceId && r.email === email)) {
      throw Object.assign(new Error('duplicate member e-mail'), { code: PG_UNIQUE_VIOLATION });
    }
    const row: Stored = {
      id: randomUUID(),
      workspace_id: workspaceId,
      email,
      role,
      status: 'invited',
      created_at: new Date(this.now()),
      user_id: null,
    };
    this.rows.push(row);
    this.count(tx, workspaceId, 1);
    onRollback(tx, () => this.rows.splice(this.rows.indexOf(row), 1));
    return strip(row);
  }

  async activate(tx: Queryable, workspaceId: string, memberId: string, userId: string) {
    const row = this.row(workspaceId, memberId);
    if (!row || row.user_id) return undefined;
    Object.assign(row, { user_id: userId, status: 'active' });
    onRollback(tx, () => Object.assign(row, { user_id: null, status: 'invited' }));
    return strip(row);
  }

  async setRole(tx: Queryable, workspaceId: string, memberId: string, role: Role): Promise<MemberRow> {
    const row = this.row(workspaceId, memberId);
    if (!row) throw new Error('setRole of an unknown member');
    const old = row.role;
    row.role = role;
    onRollback(tx, () => {
      row.role = old;
    });
    return strip(row);
  }

  async remove(tx: Queryable, workspaceId: string, memberId: string): Promise<void> {
    const row = this.row(workspaceId, memberId);
    if (!row) return;
    this.rows.splice(this.rows.indexOf(row), 1);
    this.count(tx, workspaceId, -1);
    onRollback(tx, () => this.rows.push(row));
  }

  private row(workspaceId: string, memberId: string): Stored | undefined {
    return this.rows.find((r) => r.workspace_id === workspaceId && r.id === memberId);
  }

  private count(tx: Queryable, workspaceId: string, by: 1 | -1): void {
    this.workspaces.countMember(workspaceId, by);
    onRollback(tx, () => this.workspaces.countMember(workspaceId, by === 1 ? -1 : 1));
  }
}

function strip(row: Stored): MemberRow {
  const { workspace_id: _ws, ...member } = row;
  return { ...member };
}
