import { randomUUID } from 'node:crypto';
import { onRollback } from '../platform/fake-transaction.js';
import type { Queryable } from '../platform/postgres.js';
import type * as store from './releases.store.js';

/** Releases in memory. `seq` counts up across every app, like the Postgres sequence. */
export class FakeReleasesStore implements store.ReleasesStore {
  readonly rows: store.ReleaseRow[] = [];
  private nextSeq = 1;

  constructor(private readonly now: () => number = Date.now) {}

  async insert(tx: Queryable, r: store.NewRelease): Promise<store.ReleaseRow> {
    const row: store.ReleaseRow = {
      id: r.id ?? randomUUID(),
      seq: this.nextSeq++,
      workspace_id: r.workspaceId,
      app_id: r.appId,
      version: r.version,
      channel: r.channel,
      rollout_pct: r.rolloutPct,
      mandatory: r.mandatory,
      notes: r.notes,
      sha256: r.sha256,
      size: r.size,
      fingerprint: r.fingerprint,
      target_binary_range: r.targetBinaryRange,
      active: true,
      rolled_back_at: null,
      created_at: r.createdAt ?? new Date(this.now()),
      capacitor_checksum: r.capacitor?.checksum ?? null,
      capacitor_session_key: r.capacitor?.sessionKey ?? null,
      capacitor_key_id: r.capacitor?.keyId ?? null,
      crc32: r.crc32 ?? null,
      paused: false,
      promoted_from: r.promotedFrom?.id ?? null,
      promoted_from_channel: r.promotedFrom?.channel ?? null,
    };
    this.rows.push(row);
    onRollback(tx, () => this.rows.splice(this.rows.indexOf(row), 1));
    return { ...row };
  }

  async find(workspaceId: string, id: string): Promise<store.ReleaseRow | undefined> {
    return this.copy(this.rows.find((r) => r.id === id && r.workspace_id === workspaceId));
  }

  async findMany(workspaceId: string, ids: readonly string[]): Promise<store.ReleaseRow[]> {
    const wanted = new Set(ids);
    return this.rows.filter((r) => wanted.has(r.id) && r.workspace_id === workspaceId).map((r) => ({ ...r }));
  }

  async findVersion(appId: string, channel: string, version: string): Promise<store.ReleaseRow | undefined> {
    return this.copy(
      this.newestFirst().find((r) => r.app_id === appId && r.channel === channel && r.version === version),
    );
  }

  async lookup(
    workspaceId: string,
    ref: store.ReleaseNameRef,
    scope: store.ReleaseScope,
    limit: number,
  ): Promise<store.ReleaseRow[]> {
    const { idPrefix } = ref;
    return this.newestFirst()
      .filter(
        (r) =>
          r.workspace_id === workspaceId &&
          (r.version === ref.version || (idPrefix !== null && r.id.startsWith(idPrefix))) &&
          (scope.appId === undefined || r.app_id === scope.appId) &&
          (scope.channel === undefined || r.channel === scope.channel),
      )
      .slice(0, limit)
      .map((r) => ({ ...r }));
  }

  async list(
    appId: string,
    channel: string | undefined,
    limit: number,
    offset: number,
  ): Promise<store.ReleaseRow[]> {
    return this.newestFirst()
      .filter((r) => r.app_id === appId && (channel === undefined || r.channel === channel))
      .slice(offset, offset + limit + 1)
      .map((r) => ({ ...r }));
  }

  async setRollout(tx: Queryable, id: string, rolloutPct: number): Promise<store.ReleaseRow> {
    return this.change(tx, id, { rollout_pct: rolloutPct });
  }

  async setPaused(tx: Queryable, id: string, paused: boolean): Promise<store.ReleaseRow> {
    return this.change(tx, id, { paused });
  }

  async previousActive(
    appId: string,
    channel: string,
    beforeSeq: number,
  ): Promise<store.ReleaseRow | undefined> {
    return this.copy(
      this.newestFirst().find(
        (r) => r.app_id === appId && r.channel === channel && r.active && r.seq < beforeSeq,
      ),
    );
  }

  async deactivate(tx: Queryable, id: string): Promise<store.ReleaseRow> {
    return this.change(tx, id, { active: false, rolled_back_at: new Date(this.now()) });
  }

  private change(tx: Queryable, id: string, patch: Partial<store.ReleaseRow>): store.ReleaseRow {
    const row = this.rows.find((r) => r.id === id)!;
    const before = { ...row };
    Object.assign(row, patch);
    onRollback(tx, () => Object.assign(row, before));
    return { ...row };
  }

  private newestFirst(): store.ReleaseRow[] {
    return [...this.rows].sort((a, b) => b.seq - a.seq);
  }

  private copy(row: store.ReleaseRow | undefined): store.ReleaseRow | undefined {
    return row && { ...row };
  }
}
