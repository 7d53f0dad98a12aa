import { randomUUID } from 'node:crypto';
import type { AppsStore } from '../apps/apps.store.js';
import type { FakeMembersStore } from '../members/members.fake-store.js';
import { onRollback } from '../platform/fake-transaction.js';
import type { Queryable } from '../platform/postgres.js';
import type {
  ApiKeyRow,
  ApiKeysStore,
  AuthenticatedKey,
  ExpiringKey,
  KeyRole,
  KeyScope,
  LiveKey,
  RevokedKey,
} from './api-keys.store.js';
import { KEY_ROLES_RANKED } from './api-keys.store.js';

interface Stored extends LiveKey {
  name: string;
  key_hash: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked: boolean;
  app_ids: string[] | null;
  expires_at: Date | null;
  expiry_notified: boolean;
}

const rank = (role: string) => KEY_ROLES_RANKED.indexOf(role as KeyRole);

/** API keys in memory; makers and their roles come from the members and users fakes. */
export class FakeApiKeysStore implements ApiKeysStore {
  readonly rows: Stored[] = [];

  constructor(
    private readonly members: FakeMembersStore,
    /** The users' e-mails: the auth store's fake. */
    private readonly users: { userById(userId: string): Promise<{ id: string; email: string } | undefined> },
    private readonly now: () => number = Date.now,
    /** The apps a key may be limited to; without it no app id is known. */
    private readonly apps?: Pick<AppsStore, 'find'>,
  ) {}

  async insert(
    tx: Queryable,
    input: { workspaceId: string; name: string; role: KeyRole; keyHash: string; createdBy: string | null },
  ): Promise<ApiKeyRow> {
    const row: Stored = {
      id: randomUUID(),
      workspace_id: input.workspaceId,
      name: input.name,
      role: input.role,
      key_hash: input.keyHash,
      created_by: input.createdBy,
      created_at: new Date(this.now()),
      last_used_at: null,
      revoked: false,
      app_ids: null,
      expires_at: null,
      expiry_notified: false,
    };
    this.rows.push(row);
    onRollback(tx, () => this.rows.splice(this.rows.indexOf(row), 1));
    return this.listed(row);
  }

  async list(workspaceId: string): Promise<ApiKeyRow[]> {
    const live = this.rows
      .filter((r) => r.workspace_id === workspaceId && !r.revoked)
      .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || a.id.localeCompare(b.id));
    return Promise.all(live.map((r) => this.listed(r)));
  }

  async revoke(tx: Queryable, workspaceId: string, keyId: string): Promise<RevokedKey | undefined> {
    const row = this.rows.find((r) => r.workspace_id === workspaceId && r.id === keyId && !r.revoked);
    return row ? this.revokeRows(tx, [row])[0] : undefined;
  }

  async revokeMadeBy(tx: Queryable, workspaceId: string, userId: string): Promise<RevokedKey[]> {
    return this.revokeRows(tx, this.madeBy(workspaceId, userId));
  }

  async revokeAllMadeBy(tx: Queryable, userId: string): Promise<RevokedKey[]> {
    return this.revokeRows(
      tx,
      this.rows.filter((r) => r.created_by === userId && !r.revoked),
    );
  }

  private revokeRows(tx: Queryable, rows: Stored[]): RevokedKey[] {
    this.change(tx, rows, (r) => {
      r.revoked = true;
    });
    return rows
      .map((r) => ({ id: r.id, name: r.name, workspace_id: r.workspace_id }))
      .sort((a, b) => a.id.localeCompare(b.id));
  }

  async capMadeBy(tx: Queryable, workspaceId: string, userId: string, role: KeyRole): Promise<string[]> {
    const above = this.madeBy(workspaceId, userId).filter((r) => rank(r.role) > rank(role));
    return this.change(tx, above, (r) => {
      r.role = role;
    });
  }

  async lockLive(_tx: Queryable, keyId: string): Promise<LiveKey | undefined> {
    const row = this.rows.find((r) => r.id === keyId && !r.revoked);
    return row && live(row, row.role);
  }

  async findLive(keyHash: string): Promise<AuthenticatedKey | undefined> {
    const row = this.rows.find((r) => r.key_hash === keyHash && !r.revoked);
    if (!row) return undefined;
    const scope = { app_ids: row.app_ids, expires_at: row.expires_at };
    if (!row.created_by) return { ...live(row, row.role), name: row.name, creator_email: null, ...scope };
    const makerRole = this.members.roleOf(row.workspace_id, row.created_by);
    if (!makerRole) return undefined;
    const capped = makerRole === 'owner' || rank(row.role) <= rank(makerRole) ? row.role : makerRole;
    const maker = await this.users.userById(row.created_by);
    return { ...live(row, capped as KeyRole), name: row.name, creator_email: maker?.email ?? null, ...scope };
  }

  async touch(keyId: string): Promise<void> {
    const row = this.rows.find((r) => r.id === keyId);
    if (row) row.last_used_at = new Date(this.now());
  }

  async setScope(tx: Queryable, keyId: string, scope: KeyScope): Promise<void> {
    const row = this.rows.find((r) => r.id === keyId);
    if (!row) return;
    this.change(tx, [row], (r) => {
      r.app_ids = scope.appIds;
      r.expires_at = scope.expiresAt;
    });
  }

  async appsOfWorkspace(_tx: Queryable, workspaceId: string, appIds: string[]): Promise<string[]> {
    const own = await Promise.all(
      appIds.map(async (id) => ((await this.apps?.find(workspaceId, id)) ? id : null)),
    );
    return own.filter((id): id is string => id !== null);
  }

  async takeExpiring(tx: Queryable, before: Date, limit: number): Promise<ExpiringKey[]> {
    const now = this.now();
    const due = this.rows
      .filter(
        (r) =>
          !r.revoked &&
          !r.expiry_notified &&
          r.expires_at &&
          r.expires_at.getTime() > now &&
          r.expires_at.getTime() <= before.getTime(),
      )
      .sort((a, b) => a.expires_at!.getTime() - b.expires_at!.getTime() || a.id.localeCompare(b.id))
      .slice(0, limit);
    this.change(tx, due, (r) => {
      r.expiry_notified = true;
    });
    return due.map((r) => ({
      id: r.id,
      workspace_id: r.workspace_id,
      name: r.name,
      expires_at: r.expires_at!,
      app_ids: r.app_ids,
    }));
  }

  private madeBy(workspaceId: string, userId: string): Stored[] {
    return this.rows.filter((r) => r.workspace_id === workspaceId && r.created_by === userId && !r.revoked);
  }

  private change(tx: Queryable, rows: Stored[], apply: (r: Stored) => void): string[] {
    for (const r of rows) {
      const before = { ...r };
      apply(r);
      onRollback(tx, () => Object.assign(r, before));
    }
    return rows.map((r) => r.id).sort();
  }

  private async listed(r: Stored): Promise<ApiKeyRow> {
    const maker = r.created_by ? await this.users.userById(r.created_by) : undefined;
    return {
      id: r.id,
      name: r.name,
      role: r.role,
      created_at: r.created_at,
      last_used_at: r.last_used_at,
      created_by: maker ? { id: maker.id, email: maker.email } : null,
      app_ids: r.app_ids,
      expires_at: r.expires_at,
    };
  }
}

function live(r: Stored, role: KeyRole): LiveKey {
  return { id: r.id, workspace_id: r.workspace_id, role, created_by: r.created_by };
}
