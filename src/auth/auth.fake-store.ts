import { randomUUID } from 'node:crypto';
import { isUuid } from '@ota/shared/ids';
import type { FakeMembersStore } from '../members/members.fake-store.js';
import { onRollback } from '../platform/fake-transaction.js';
import { PG_INVALID_TEXT, type Queryable } from '../platform/postgres.js';
import type { FakeWorkspacesStore } from '../workspaces/workspaces.fake-store.js';
import type { AuthStore, UserRow } from './auth.store.js';

/** Users in memory; workspaces and memberships are the workspaces and members fakes' rows. */
export class FakeAuthStore implements AuthStore {
  readonly users: UserRow[] = [];
  /** Signed-out token ids, with the time each token would have expired. */
  readonly revoked = new Map<string, Date>();

  constructor(
    private readonly workspaces: FakeWorkspacesStore,
    private readonly members: FakeMembersStore,
  ) {}

  async findUserByEmail(email: string): Promise<UserRow | undefined> {
    const user = this.users.find((u) => u.email === email);
    return user && { ...user };
  }

  async insertUser(q: Queryable, email: string, passwordHash: string): Promise<UserRow | undefined> {
    if (this.users.some((u) => u.email === email)) return undefined;
    const user: UserRow = {
      id: randomUUID(),
      email,
      password_hash: passwordHash,
      token_subject: randomUUID(),
    };
    this.users.push(user);
    onRollback(q, () => this.users.splice(this.users.indexOf(user), 1));
    return { ...user };
  }

  async defaultWorkspace(userId: string): Promise<string | undefined> {
    const mine = this.memberships(userId);
    return (mine.find((m) => m.role === 'owner') ?? mine[0])?.workspace_id;
  }

  async membership(userId: string, workspaceId: string) {
    const user = this.users.find((u) => u.id === userId);
    const found = this.memberships(userId).find((m) => m.workspace_id === workspaceId);
    return user && found && { workspace_id: workspaceId, role: found.role, email: user.email };
  }

  async membershipByTokenSubject(subject: string, workspaceId: string, tokenId: string) {
    if (!isUuid(workspaceId) || !isUuid(tokenId))
      throw Object.assign(new Error('invalid uuid'), { code: PG_INVALID_TEXT });
    const user = this.users.find((u) => u.token_subject === subject);
    if (!user) return undefined;
    return {
      user_id: user.id,
      email: user.email,
      role: this.members.roleOf(workspaceId, user.id) ?? null,
      revoked: this.revoked.has(tokenId),
    };
  }

  async revokeToken(q: Queryable, tokenId: string, expiresAt: Date): Promise<void> {
    for (const [id, until] of this.revoked) if (until < new Date()) this.revoked.delete(id);
    if (this.revoked.has(tokenId)) return;
    this.revoked.set(tokenId, expiresAt);
    onRollback(q, () => this.revoked.delete(tokenId));
  }

  async rotateTokenSubject(q: Queryable, userId: string): Promise<void> {
    const user = this.users.find((u) => u.id === userId);
    if (!user) return;
    const before = user.token_subject;
    user.token_subject = randomUUID();
    onRollback(q, () => {
      user.token_subject = before;
    });
  }

  async setPassword(q: Queryable, userId: string, passwordHash: string): Promise<void> {
    const user = this.users.find((u) => u.id === userId);
    if (!user) return;
    const before = user.password_hash;
    user.password_hash = passwordHash;
    onRollback(q, () => {
      user.password_hash = before;
    });
  }

  async tokenSubject(userId: string): Promise<string | undefined> {
    return this.users.find((u) => u.id === userId)?.token_subject;
  }

  async workspacesOf(userId: string) {
    return this.memberships(userId).map((m) => {
      const ws = this.workspaces.rows.get(m.workspace_id)!;
      return { id: ws.id, name: ws.name, plan: ws.plan, role: m.role };
    });
  }

  async userById(userId: string): Promise<{ id: string; email: string } | undefined> {
    const user = this.users.find((u) => u.id === userId);
    return user && { id: user.id, email: user.email };
  }

  /** The user's memberships, by the age of their workspace (the fake's workspaces keep insertion order). */
  private memberships(userId: string) {
    const order = [...this.workspaces.rows.keys()];
    return this.members.rows
      .filter((m) => m.user_id === userId && this.workspaces.rows.has(m.workspace_id))
      .sort((a, b) => order.indexOf(a.workspace_id) - order.indexOf(b.workspace_id));
  }
}
