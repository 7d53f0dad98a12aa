import { onRollback } from '../platform/fake-transaction.js';
import type { Queryable } from '../platform/postgres.js';
import type { ExpoRouteRow } from './expo.route.js';
import {
  type DraftRow,
  type EmbeddedUpdate,
  expoAssetFilesOf,
  type ManifestsStore,
  type ReleaseOfApp,
  type StoredPart,
} from './manifests.store.js';

const DAY_MS = 86_400_000;

/**
 * Manifest parts and drafts in memory; expiry by the fakes' clock. The Expo routing rows join releases
 * (another feature's rows): tests set them with setExpoRoute.
 */
export class FakeManifestsStore implements ManifestsStore {
  readonly partsByRelease = new Map<string, StoredPart[]>();
  readonly drafts = new Map<string, DraftRow>();
  readonly embeddedByRelease = new Map<string, EmbeddedUpdate[]>();
  private readonly expoRoutes = new Map<string, ExpoRouteRow[]>();
  private readonly assetsByApp = new Map<string, Set<string>>();

  constructor(private readonly now: () => number = Date.now) {}

  setExpoRoute(appId: string, rows: ExpoRouteRow[]): void {
    this.expoRoutes.set(appId, rows);
  }

  async insertParts(tx: Queryable, release: ReleaseOfApp, parts: readonly StoredPart[]): Promise<void> {
    const list = this.partsByRelease.get(release.id) ?? [];
    if (parts.some((p) => list.some((q) => q.part === p.part))) throw new Error('duplicate manifest part');
    const before = [...list];
    this.partsByRelease.set(release.id, [...list, ...parts.map((p) => ({ ...p }))]);
    const files = this.assetsByApp.get(release.app_id) ?? new Set<string>();
    const added = expoAssetFilesOf(parts).filter((f) => !files.has(f));
    for (const f of added) files.add(f);
    this.assetsByApp.set(release.app_id, files);
    onRollback(tx, () => {
      this.partsByRelease.set(release.id, before);
      for (const f of added) files.delete(f);
    });
  }

  async insertEmbedded(tx: Queryable, releaseId: string, updates: readonly EmbeddedUpdate[]): Promise<void> {
    const before = this.embeddedByRelease.get(releaseId);
    if (before && updates.some((u) => before.some((b) => b.platform === u.platform)))
      throw new Error('duplicate embedded update');
    this.embeddedByRelease.set(releaseId, [...(before ?? []), ...updates.map((u) => ({ ...u }))]);
    onRollback(tx, () =>
      before ? this.embeddedByRelease.set(releaseId, before) : this.embeddedByRelease.delete(releaseId),
    );
  }

  async expoAssetFiles(appId: string, limit: number): Promise<string[]> {
    return [...(this.assetsByApp.get(appId) ?? [])].slice(0, limit);
  }

  async expoAssetReferenced(appId: string | null, file: string): Promise<boolean> {
    if (appId !== null) return this.assetsByApp.get(appId)?.has(file) ?? false;
    return [...this.assetsByApp.values()].some((files) => files.has(file));
  }

  async parts(releaseId: string): Promise<StoredPart[]> {
    return (this.partsByRelease.get(releaseId) ?? [])
      .map((p) => ({ ...p }))
      .sort((a, b) => a.part.localeCompare(b.part));
  }

  async expoRouteRows(appId: string): Promise<ExpoRouteRow[]> {
    return [...(this.expoRoutes.get(appId) ?? [])];
  }

  async insertDraft(
    tx: Queryable,
    draft: Omit<DraftRow, 'expires_at'>,
    ttlSeconds: number,
  ): Promise<DraftRow> {
    for (const [id, old] of this.drafts) {
      if (old.expires_at.getTime() < this.now() - DAY_MS) this.drafts.delete(id);
    }
    if (this.drafts.has(draft.id)) throw new Error('duplicate draft id');
    const row: DraftRow = { ...draft, expires_at: new Date(this.now() + ttlSeconds * 1000) };
    this.drafts.set(row.id, row);
    onRollback(tx, () => this.drafts.delete(row.id));
    return structuredClone(row);
  }

  async findDraft(workspaceId: string, id: string): Promise<DraftRow | undefined> {
    const row = this.live(workspaceId, id);
    return row && structuredClone(row);
  }

  async takeDraft(tx: Queryable, workspaceId: string, id: string): Promise<boolean> {
    const row = this.live(workspaceId, id);
    if (!row) return false;
    this.drafts.delete(id);
    onRollback(tx, () => this.drafts.set(id, row));
    return true;
  }

  private live(workspaceId: string, id: string): DraftRow | undefined {
    const row = this.drafts.get(id);
    return row && row.workspace_id === workspaceId && row.expires_at.getTime() > this.now() ? row : undefined;
  }
}
